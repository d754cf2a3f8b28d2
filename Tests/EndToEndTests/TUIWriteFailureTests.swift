import Foundation
import TestSupport
import Testing

/// Issue 18 item 3, in the terminal: a purchase whose journal write or fsync fails (EIO, ENOSPC,
/// injected through `STOREFRONT_FAIL_IO`, SystemIO's fault-injecting file system under the
/// storefront) shows the error naming the file, and the storefront keeps running: it answers
/// keys and quits cleanly. The next run without faults loses nothing recorded
/// before and delivers every charge once.
@Suite(.waitsOnProcesses, .serialized) struct TUIWriteFailureTests {

    /// Delivered and charged transaction IDs, from the CLI.
    static func facts(_ storefront: StorefrontCLI) throws -> (delivered: [String], charged: [String]) {
        let transactions = try #require(try storefront.object(["history"])["transactions"] as? [[String: Any]])
        let charged = try storefront.array(["store", "charges"])
        return (
            transactions.compactMap { $0["transactionID"] as? String },
            charged.compactMap { $0["transactionID"] as? String }
        )
    }

    @Test(arguments: ["synchronize:1+:EIO", "write:1+:ENOSPC"])
    func aFailingWriteIsShownAndTheStorefrontKeepsRunning(_ rule: String) async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let first = try storefront.run(["buy", DemoCatalog.coins])
        try #require(first.status == 0, "\(first.stderr)")
        // The receipt makes the chain's RSA receipt signer, which the storefront asks for at
        // launch: made now, the launch writes nothing and the first failing call is the purchase's.
        let receipt = try storefront.run(["receipt"])
        try #require(receipt.status == 0, "\(receipt.stderr)")
        let before = try Self.facts(storefront)

        let tmux = try await TUIEndToEndTests.open(storefront, environment: "STOREFRONT_FAIL_IO=\(rule) ")
        defer { tmux.close() }
        try await TUIEndToEndTests.buy(tmux, "100 Coins")
        // The first failing call may be the journal's or the vault's: the message names its
        // file; the event log (`l`) holds it whole, with the errno (as text, or by number once
        // the vault's handle has stopped).
        let shown = try await tmux.waitFor("the failed write's error") { screen in
            (screen.contains("failed") || screen.contains("Error:")) && screen.contains(storefront.data.path + "/")
        }
        #expect(!shown.contains("Purchased"), "a purchase whose write failed was called done:\n\(shown)")
        let errno =
            rule.hasSuffix("EIO") ? ["Input/output error", "errno 5"] : ["No space left on device", "errno 28"]
        try tmux.keys("l")
        try await tmux.waitFor("the errno in the event log") { screen in errno.contains { screen.contains($0) } }
        try tmux.keys("l")
        // Still running: it answers keys (the menu opens and closes).
        try tmux.keys("Escape", "Escape")
        try await tmux.press("m", until: "Restore Purchases")
        try tmux.keys("Escape")
        try await tmux.waitFor("the menu closed") { !$0.contains("Restore Purchases") }
        try await tmux.quit()
        #expect(try !tmux.alternateScreenOn())

        let after = try Self.facts(storefront)
        #expect(
            Set(before.delivered).isSubset(of: after.delivered), "a recorded purchase is lost: \(before) → \(after)")
        #expect(Set(after.delivered).count == after.delivered.count, "delivered twice: \(after.delivered)")
        #expect(Set(after.charged).isSubset(of: after.delivered), "charged, never delivered: \(after)")
    }
}
