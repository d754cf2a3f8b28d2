import Foundation
import TestSupport
import Testing

/// The Transaction Manager's refunded rows in a real terminal (tmux runs the built storefront):
/// purchases refunded from the CLI stay listed, marked refunded; the keys for a granting
/// purchase say why they do nothing; u reverses the refund (REFUND_REVERSED). The CLI, another
/// process on the same data directory, says what the store and the app then hold, as after
/// `store refund-reverse ID`.
@Suite(.waitsOnProcesses) struct TUIRefundReversalTests {
    static let removeAds = "com.storefront.demo.removeads"
    static let pro = "com.storefront.demo.premium.pro.monthly"

    func latest(_ product: String, _ storefront: StorefrontCLI) throws -> [String: Any] {
        try storefront.object(["latest", product])
    }

    @Test func refundedRowsAreMarkedAndUReversesTheirRefunds() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        // Notifications are journaled (no server runs here): the outbox shows what was caused.
        _ = try storefront.json(["store", "set", "notification-url", "http://127.0.0.1:9/notifications"])
        let ads = try storefront.buy(Self.removeAds)
        let pro = try storefront.buy(Self.pro)
        _ = try storefront.json(["store", "refund", ads])
        _ = try storefront.json(["store", "refund", pro])
        #expect(try latest(Self.pro, storefront)["state"] as? String == "refunded")

        let (tmux, manager) = try await TUIEndToEndTests.openTransactions(storefront, showing: "both refunded rows") {
            $0.contains(ads) && $0.contains(pro)
        }
        defer { tmux.close() }
        for id in [ads, pro] {
            #expect(
                manager.split(separator: "\n").contains { $0.contains(id) && $0.contains("Refunded") },
                "\(id): \(manager)")
        }
        #expect(manager.contains("u Reverse refund"), "\(manager)")

        // The newest purchase is first: the subscription. Renewing it says why not.
        try await tmux.press("n", until: "was refunded: u reverses the refund")
        try await tmux.press("u", until: "Refund of transaction \(pro) reversed")
        try await tmux.waitFor("the subscription renewing again") { screen in
            screen.split(separator: "\n").contains { $0.contains(pro) && $0.lowercased().contains("renews") }
        }
        let subscription = try #require(try storefront.array(["store", "subscriptions"]).first)
        #expect(subscription["expired"] as? Bool == false, "\(subscription)")
        let reinstated = try latest(Self.pro, storefront)
        #expect(reinstated["state"] as? String == "purchased" && reinstated["revocationDate"] == nil, "\(reinstated)")
        // A second u on a granting row refuses.
        try await tmux.press("u", until: "is not refunded")

        try tmux.keys("Down")
        try await tmux.press("u", until: "Refund of transaction \(ads) reversed")
        try await tmux.waitFor("the purchase owned again") { screen in
            screen.split(separator: "\n").contains { $0.contains(ads) && $0.contains("Owned") }
        }
        let owned = try latest(Self.removeAds, storefront)
        #expect(owned["state"] as? String == "purchased" && owned["revocationDate"] == nil, "\(owned)")
        let entitlements = try #require(try storefront.object(["entitlements"])["entitlements"] as? [[String: Any]])
        #expect(
            Set(entitlements.compactMap { $0["productID"] as? String }) == [Self.removeAds, Self.pro], "\(entitlements)"
        )
        #expect(
            try storefront.notificationKinds() == [
                "ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "REFUND", "REFUND", "REFUND_REVERSED", "REFUND_REVERSED",
            ])

        try await tmux.quit(closing: 1)
    }
}
