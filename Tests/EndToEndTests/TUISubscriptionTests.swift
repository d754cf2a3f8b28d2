import Foundation
import TestSupport
import Testing

/// The Transaction Manager's subscription commands in a real terminal: tmux runs the built
/// storefront, the test presses the keys, reads the screen, and asks the CLI (another
/// process on the same data directory) what the store and the app now hold.
@Suite(.waitsOnProcesses) struct TUISubscriptionTests {
    let monthly = "com.storefront.demo.premium.basic.monthly"

    /// The store's view of the one subscription.
    func subscription(_ storefront: StorefrontCLI) throws -> [String: Any] {
        try #require(try storefront.array(["store", "subscriptions"]).first)
    }

    /// The app's transactions, oldest first.
    func history(_ storefront: StorefrontCLI) throws -> [[String: Any]] {
        try #require(try storefront.object(["history"])["transactions"] as? [[String: Any]])
    }

    /// What the app is entitled to now, by product ID → state.
    func entitlements(_ storefront: StorefrontCLI) throws -> [String: String] {
        let items = try #require(try storefront.object(["entitlements"])["entitlements"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: items.compactMap { item in
                (item["productID"] as? String).map { ($0, item["state"] as? String ?? "?") }
            })
    }

    @Test func renewBillingIssueGraceResolveCancelExpireAndRefundFromTheTransactionManager() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        // A monthly period lasts an hour on this clock: nothing renews by itself during the test.
        for (name, value) in [("grace-period", "on"), ("time-rate", "monthly-every-hour")] {
            _ = try storefront.json(["store", "set", name, value])
        }
        let bought = try storefront.buy(monthly)

        let (tmux, _) = try await TUIEndToEndTests.openTransactions(storefront, showing: "the subscription's row") {
            $0.contains(bought) && $0.contains("Basic (Monthly)") && $0.contains("Renews")
        }
        defer { tmux.close() }

        // n: renewed now, a new transaction on the same row.
        try await tmux.press("n", until: "Renewed Basic (Monthly): transaction")
        try await tmux.waitFor("the renewal's row") { $0.contains("Renews") && !$0.contains(bought) }
        #expect(try history(storefront).count == 2)

        // b: a billing issue; the row says the next renewal will fail.
        try await tmux.press("b", until: "Billing issue, renews")
        #expect(try subscription(storefront)["billingIssue"] as? Bool == true)

        // n: the forced renewal fails into billing retry with a grace period; access continues.
        try await tmux.press("n", until: "Renewal of Basic (Monthly) failed (billing issue): grace period until")
        try await tmux.waitFor(text: "Grace period until")
        let inGrace = try subscription(storefront)
        #expect(inGrace["billingRetryStart"] is String && inGrace["gracePeriodExpiresDate"] is String, "\(inGrace)")
        #expect(try entitlements(storefront) == [monthly: "inGracePeriod"])

        // b again: resolved, which renews at once (a new transaction on the same row).
        try await tmux.press("b", until: "Billing issue resolved for Basic (Monthly)")
        try await tmux.waitFor(text: "Renews")
        #expect(try history(storefront).count == 3, "resolving renewed at once")
        #expect(try subscription(storefront)["billingRetryStart"] is NSNull)
        #expect(try entitlements(storefront) == [monthly: "active"])

        // c: cancelled, access to the end of the period; c again turns auto-renew back on.
        try await tmux.press("c", until: "Auto-renew off, ends")
        #expect(try subscription(storefront)["willAutoRenew"] as? Bool == false)
        try await tmux.press("c", until: "Auto-renew is on for Basic (Monthly)")
        #expect(try subscription(storefront)["willAutoRenew"] as? Bool == true)

        // A cancel from another process shows without a key press; undo it the same way.
        _ = try storefront.json(["store", "cancel", monthly])
        try await tmux.waitFor(text: "Auto-renew off, ends")
        _ = try storefront.json(["store", "cancel", monthly, "--undo"])
        try await tmux.waitFor("the row renewing again") {
            !$0.contains("Auto-renew off, ends") && $0.contains("Renews")
        }

        // x: expired now; the app has nothing left.
        // x: expired now, after a question; the app has nothing left.
        try await tmux.press("x", until: "Access stops at once.")
        try await tmux.press("y", until: "Expired Basic (Monthly) now")
        #expect(try subscription(storefront)["expired"] as? Bool == true)
        #expect(try entitlements(storefront).isEmpty)

        // f: the last period refunded; its row stays, marked refunded (u would reverse it).
        let last = try #require(try history(storefront).last?["transactionID"] as? String)
        try await tmux.press("f", until: "The app loses what it bought.")
        try await tmux.press("y", until: "Refunded transaction \(last)")
        try await tmux.waitFor("the period's row marked refunded") { screen in
            screen.split(separator: "\n").contains {
                $0.contains(last) && $0.contains("Refunded") && !$0.contains("Refunded transaction")
            }
        }
        #expect(try history(storefront).last?["revocationDate"] is String)

        try await tmux.quit(closing: 1)
    }
}
