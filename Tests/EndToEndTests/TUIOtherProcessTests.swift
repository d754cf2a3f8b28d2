import Foundation
import TestSupport
import Testing

/// What another process does to the shared store (the CLI on the same data directory) reaches
/// the storefront running in a real terminal: announced, and shown where it is open.
@Suite(.waitsOnProcesses, .serialized) struct TUIOtherProcessTests {
    /// QA: `store decline ID` from the CLI only took the "Waiting for approval" label away,
    /// where an approval from the CLI is logged.
    @Test func anAskToBuyDeclinedFromTheCLIIsAnnouncedAndLogged() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        try storefront.set([("ask-to-buy", "on")])
        let tmux = try await TUIEndToEndTests.open(storefront, width: 120, height: 40)
        defer { tmux.close() }
        try await TUIEndToEndTests.buy(tmux, "100 Coins")
        try await tmux.waitFor(text: "100 Coins is waiting for approval")
        let pending = try storefront.array(["store", "pending"])
        let id = try #require(pending.first?["transactionID"] as? String, "\(pending)")
        #expect(try storefront.run(["store", "decline", id]).status == 0)
        try await tmux.waitFor(text: "Ask to Buy: 100 Coins was declined")
        try tmux.keys("Escape")
        try await tmux.press("L", until: "Event Log")
        try await tmux.waitFor(text: "\(id) com.storefront.demo.coins.100 ×1 declined")
        try await tmux.quit(closing: 1)
    }

    /// QA: `store set ask-to-buy on` while Store Settings was open still showed Off seconds later.
    @Test func anOpenStoreSettingsWindowShowsAChangeMadeFromTheCLI() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront, width: 120, height: 40)
        defer { tmux.close() }
        try tmux.keys("o")
        try await tmux.waitFor("Ask to Buy Off") { askToBuy($0) == "Off" }
        try storefront.set([("ask-to-buy", "on")])
        try await tmux.waitFor("Ask to Buy On") { askToBuy($0) == "On" }
        try await tmux.quit(closing: 1)
    }

    /// The value on the Ask to Buy row of the Store Settings window.
    private func askToBuy(_ screen: String) -> String? {
        guard let row = screen.split(separator: "\n").first(where: { $0.contains("Ask to Buy") }) else { return nil }
        return ["On", "Off"].first { row.contains("◂ \($0) ▸") }
    }
}
