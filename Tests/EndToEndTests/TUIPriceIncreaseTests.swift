import Foundation
import TestSupport
import Testing

/// The Transaction Manager's price-increase keys in a real terminal (tmux runs the built
/// storefront): p announces a price increase needing consent on the selected subscription,
/// + is the customer's consent and - the decline. The CLI, another process on the same data
/// directory, says what the store then did: the notifications made (Apple's PRICE_INCREASE
/// PENDING and ACCEPTED) and, at the renewal date after a decline, the expiry with intent
/// priceIncrease (EXPIRED/PRICE_INCREASE), which the Server Notifications window (N) lists.
@Suite(.waitsOnProcesses) struct TUIPriceIncreaseTests {

    @Test func pAnnouncesPlusAcceptsAndMinusDeclinesUntilTheRenewalDate() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        // Notifications are journaled (no server runs here): the outbox shows what was caused.
        _ = try storefront.json(["store", "set", "notification-url", "http://127.0.0.1:9/notifications"])
        let bought = try storefront.buy(DemoCatalog.pro)

        let (tmux, _) = try await TUIEndToEndTests.openTransactions(storefront, showing: "the subscription's row") {
            $0.contains(bought)
        }
        defer { tmux.close() }

        try await tmux.press("p", until: "Price increase announced for \(bought)")
        try await tmux.press("+", until: "The customer accepted the price increase for \(bought)")
        #expect(
            try storefront.notificationKinds() == [
                "SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED",
            ])

        // The renewal date, forced from another process: consented, so it renews.
        let renewed = try #require(try storefront.object(["store", "renew", bought])["transaction"] as? [String: Any])
        let renewal = try #require(renewed["transactionID"] as? String)
        try await tmux.waitFor("the renewal's row") { $0.contains(renewal) }
        try await tmux.press("p", until: "Price increase announced for \(renewal)")
        try await tmux.press("-", until: "The customer declined the price increase for \(renewal)")
        let declined = try storefront.array(["store", "subscriptions"])
        #expect(
            declined.first?["willAutoRenew"] as? Bool == true,
            "a decline changes nothing until the renewal date: \(declined)")

        _ = try storefront.json(["store", "renew", bought])
        let lapsed = try storefront.array(["store", "subscriptions"])
        #expect(
            lapsed.first?["expired"] as? Bool == true
                && lapsed.first?["expirationIntent"] as? String == "priceIncrease", "\(lapsed)")
        #expect(
            try storefront.notificationKinds() == [
                "SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "DID_RENEW",
                "PRICE_INCREASE/PENDING",
                "EXPIRED/PRICE_INCREASE",
            ])

        // The Server Notifications window lists them (a page: all six here), the newest selected.
        try tmux.keys("Escape")
        // The whole window: ncurses paints the title before the rows, and tmux may read between.
        try tmux.keys("N")
        let window = try await tmux.waitFor("the window's six rows, oldest and newest") {
            $0.contains("Server Notifications (6)") && $0.contains("SUBSCRIBED/INITIAL_BUY")
                && $0.contains("EXPIRED/PRICE_INCREASE")
        }
        #expect(!window.contains("older"), "no older page to load")
        try await tmux.quit(closing: 1)
    }

    /// QA: after - the row still read as renewing, and n (renew now) said "Renewed Pro
    /// (Monthly): transaction …" when the store had ended the subscription instead.
    @Test func aDeclinedIncreaseShowsOnTheRowAndRenewNowSaysItExpired() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let bought = try storefront.buy(DemoCatalog.pro)
        let (tmux, _) = try await TUIEndToEndTests.openTransactions(storefront, showing: "the subscription's row") {
            $0.contains(bought)
        }
        defer { tmux.close() }
        try await tmux.press("p", until: "Price increase announced for \(bought)")
        try await tmux.press("-", until: "The customer declined the price increase for \(bought)")
        try await tmux.waitFor("the row saying it will not renew") { screen in
            screen.split(separator: "\n").contains { $0.contains(bought) && $0.contains("Won't renew") }
        }
        let expired = try await tmux.press(
            "n", until: "expired instead of renewing: the customer did not consent to the price increase")
        #expect(!expired.contains("Renewed"), "\(expired)")
        let lapsed = try storefront.array(["store", "subscriptions"])
        #expect(lapsed.first?["expired"] as? Bool == true, "\(lapsed)")
        try await tmux.quit(closing: 1)
    }
}
