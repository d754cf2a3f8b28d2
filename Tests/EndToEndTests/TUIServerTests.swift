import Foundation
import TestSupport
import Testing

/// The storefront and `storefront serve` on one data directory, in tmux: the menu says whether
/// the server runs and where, and My Purchases shows each purchase's order ID (the one `history`
/// prints and Look Up Order ID finds).
@Suite(.waitsOnProcesses, .serialized) struct TUIServerTests {
    @Test func theMenuShowsTheRunningServerAndMyPurchasesShowsOrderIDs() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let id = try storefront.buy("com.storefront.demo.removeads")
        let rows = try #require(try storefront.object(["history"])["transactions"] as? [[String: Any]])
        let orderID = try #require(rows.first { $0["transactionID"] as? String == id }?["orderID"] as? String)

        let server = try storefront.start(["serve", "--port", "0"])
        let url = ServeCommandTests.firstLine(server)
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let tmux = try await TUIEndToEndTests.open(storefront, width: 120, height: 40, reportingExit: true)
        defer { tmux.close() }
        try await tmux.press("m", until: "App Store Server: \(url)")
        try tmux.keys("Escape")
        try tmux.keys("p")
        let purchases = try await tmux.waitFor("the purchase with its order ID") {
            $0.contains(id) && $0.contains(orderID)
        }
        #expect(purchases.contains("Remove Ads"))
        try tmux.keys("Escape")

        kill(server.processIdentifier, SIGINT)
        #expect(server.wait().status == 0)
        try await tmux.press("m", until: "App Store Server: not running")
        try tmux.keys("Escape")
        try await tmux.press("q", until: "exit=0")
    }
}
