import Foundation
import TestSupport
import Testing

/// The customer's cancel in a real terminal: My Purchases → Subscriptions, `c` opens the cancel
/// sheet (the App Store asked the app's server, here none is configured), and "Cancel anyway"
/// turns auto-renew off through the engine; the store and its realtime log, read by the CLI
/// (another process on the same data directory), say so.
@Suite(.waitsOnProcesses) struct TUICancelSheetTests {
    let monthly = "com.storefront.demo.premium.basic.monthly"

    @Test func theCustomerCancelsFromMyPurchasesAndTheStoreLogsTheExchange() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let bought = try storefront.buy(monthly)
        let tmux = try await TUIEndToEndTests.open(storefront, width: 110, height: 32)
        defer { tmux.close() }

        try await tmux.press("p", until: "My Purchases")
        try tmux.keys("Tab", "Tab")
        // The tab's rows come with My Purchases' load: the subscription's row, then its key.
        try await tmux.waitFor("the subscription's row") {
            $0.contains("c Cancel subscription") && $0.contains("Basic (Monthly)  Active until")
        }
        let sheet = try await tmux.press("c", until: "Keep subscription")
        #expect(sheet.contains("Cancel Basic (Monthly)?"), "\(sheet)")
        #expect(sheet.contains("No retention message"), "\(sheet)")
        #expect(sheet.contains("No message: no realtime URL is configured for Sandbox"), "\(sheet)")
        #expect(sheet.contains("Cancel anyway"), "\(sheet)")

        // Enter on the first choice, Cancel anyway: auto-renew is off at the store.
        try tmux.keys("Enter")
        try await tmux.waitFor("the sheet closed on the cancelled subscription") {
            $0.contains("Auto-renew is off for Basic (Monthly)") && !$0.contains("Keep subscription")
                && $0.contains("(auto-renew off)")
        }
        let subscription = try #require(try storefront.array(["store", "subscriptions"]).first)
        #expect(subscription["originalTransactionID"] as? String == bought)
        #expect(subscription["willAutoRenew"] as? Bool == false)
        let log = try storefront.array(["store", "retention-log"])
        #expect(log.count == 1)
        #expect(log.first?["shown"] as? String == "none")
        #expect(log.first?["choice"] as? String == "cancel")
        #expect(log.first?["originalTransactionID"] as? String == bought)

        // Nothing renews any more, so there is nothing to cancel: the sheet says so, and no
        // second exchange is logged.
        try await tmux.press("c", until: "auto-renew is off already")
        #expect(try storefront.array(["store", "retention-log"]).count == 1)
        try await tmux.quit(closing: 2)
    }
}
