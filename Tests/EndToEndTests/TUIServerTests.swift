import Foundation
import Testing
import TestSupport

/// The storefront and `storefront serve` on one data directory, in tmux: the menu says whether
/// the server runs and where, and My Purchases shows each purchase's order ID (the one `history`
/// prints and Look Up Order ID finds).
@Suite(.waitsOnProcesses, .serialized) struct TUIServerTests {
    @Test func theMenuShowsTheRunningServerAndMyPurchasesShowsOrderIDs() async throws {
        let scratch = try TUIEndToEndTests.freshDataDirectory()
        let arguments = TUIEndToEndTests.arguments(scratch.url)
        let root = TUIEndToEndTests.repositoryRoot
        #expect(try StorefrontProcess.run(["store", "set", "latency", "0"] + arguments, cwd: root).status == 0)
        let bought = try StorefrontProcess.run(["buy", "com.storefront.demo.removeads", "--json"] + arguments, cwd: root)
        let id = try #require((try JSONSerialization.jsonObject(with: Data(bought.stdout.utf8)) as? [String: Any])?["transactionID"] as? String)
        let history = try StorefrontProcess.run(["history", "--json"] + arguments, cwd: root)
        let rows = try #require((try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])?["transactions"] as? [[String: Any]])
        let orderID = try #require(rows.first { $0["transactionID"] as? String == id }?["orderID"] as? String)

        let server = try StorefrontProcess.start(["serve", "--port", "0"] + arguments, cwd: root)
        let url = ServeCommandTests.firstLine(server)
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let tmux = try await TUITmux(width: 120, height: 40, directory: root)
        defer { tmux.close() }
        try tmux.run("\(StorefrontProcess.executable.path) \(arguments.joined(separator: " ")); echo exit=$?")
        try await tmux.waitFor(text: "100 Coins")
        try tmux.keys("m")
        try await tmux.waitFor(text: "App Store Server: \(url)")
        try tmux.keys("Escape")
        try tmux.keys("p")
        let purchases = try await tmux.waitFor("the purchase with its order ID") { $0.contains(id) && $0.contains(orderID) }
        #expect(purchases.contains("Remove Ads"))
        try tmux.keys("Escape")

        kill(server.processIdentifier, SIGINT)
        #expect(server.wait().status == 0)
        try tmux.keys("m")
        try await tmux.waitFor(text: "App Store Server: not running")
        try tmux.keys("Escape")
        try tmux.keys("q")
        try await tmux.waitFor(text: "exit=0")
    }
}
