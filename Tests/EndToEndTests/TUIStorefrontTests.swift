import Foundation
import TestSupport
import Testing

/// Issue 17's defects and features in a real terminal: tmux runs the built storefront on the
/// Demo catalog; the test presses keys, reads the screen, and asks the CLI what the store holds.
@Suite(.waitsOnProcesses, .serialized) struct TUIStorefrontTests {
    let forest = "com.storefront.demo.levelpack.forest"

    /// `storefront` with `settings` set, launched in a 120 × 40 pane that reports its exit status.
    func launch(_ storefront: StorefrontCLI, _ settings: [(String, String)] = []) async throws -> TUITmux {
        try storefront.set(settings)
        return try await TUIEndToEndTests.open(storefront, width: 120, height: 40, reportingExit: true)
    }

    @Test func anAskToBuyApprovalFromTheTransactionManagerStartsTheDownload() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await launch(storefront, [("ask-to-buy", "on")])
        defer { tmux.close() }
        try await TUIEndToEndTests.buy(tmux, "Forest Level Pack")
        try await tmux.waitFor(text: "Forest Level Pack is waiting for approval")
        try await tmux.press("t", until: "Waiting for approval")
        try tmux.keys("a")
        // The status line says so until the next event replaces it; on a loaded machine the
        // approved purchase may already be listed as owned by the time the pane is read.
        try await tmux.waitFor("the approval") { $0.contains("Approved transaction") || $0.contains("Owned  20") }
        try tmux.keys("Escape")
        // The approved purchase arrives with its content, which downloads to the end.
        try await tmux.waitFor("the download finished and the pack owned") {
            $0.contains("Forest Level Pack") && $0.contains("Owned")
        }
        try await tmux.press("l", until: "Download of Forest Level Pack finished")
        try await tmux.press("q", until: "exit=0")
    }

    @Test func aStorefrontSwitchNeverShowsASheetOrAHeaderOverTheOldPrices() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await launch(storefront)
        defer { tmux.close() }
        // Slow products: the switch takes a second, long enough to look at every frame of it.
        try storefront.set([("latency", "1000")])
        try await tmux.press("s", until: "Storefront & Language")
        try await tmux.press("J", literal: true, until: "→ JPN")
        try tmux.keys("Enter")
        try tmux.keys("Enter")
        // Every whole frame the wait reads (a read halfway down the switch's frame, JPN's header
        // over the rows not yet drawn again, is not one: `TUITmux.waitFor`).
        let frames = FrameLog()
        try await tmux.waitFor("the Japanese prices") { screen in
            frames.append(screen)
            return screen.contains("¥160")
        }
        for frame in frames.all {
            let header = frame.split(separator: "\n").first.map(String.init) ?? ""
            #expect(!(header.contains("JPN") && frame.contains("$0.99")), "JPN's header over USA's prices:\n\(frame)")
            #expect(
                !(frame.contains("Confirm Your In-App Purchase") && frame.contains("$0.99")),
                "a sheet at the old storefront's price:\n\(frame)")
        }
        try await tmux.press("q", until: "exit=0")
    }

    @Test func ctrlCExitsWith130AndQuittingDuringADownloadAsksFirst() async throws {
        // 3 MB at 50 kB/s: the download runs for a minute, however slow the machine.
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await launch(storefront, [("bandwidth", "50000")])
        defer { tmux.close() }
        try await TUIEndToEndTests.buy(tmux, "Forest Level Pack")
        // The status bar counts the download under way.
        try await tmux.waitFor(text: "⇩ 1 downloading")
        try tmux.keys("Escape")
        try await tmux.press("q", until: "1 download under way. Quit anyway?")
        try tmux.keys("n")
        try await tmux.waitFor("the question gone, the storefront still running") {
            !$0.contains("Quit anyway?") && $0.contains("⇩ 1 downloading")
        }
        try await tmux.press("C-c", until: "exit=130")
    }

    @Test func aDownloadThatFailsIsReportedAsAFailureNotAsAPurchase() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await launch(storefront, [("fail-downloads-at", "50")])
        defer { tmux.close() }
        try tmux.keys("l")
        try await TUIEndToEndTests.buy(tmux, "Forest Level Pack")
        let screen = try await tmux.waitFor(text: "but its download failed at 50%")
        #expect(!screen.contains("Purchased Forest Level Pack"))
        try await tmux.waitFor(text: "Download failed 50%")
        try await tmux.press("Escape", "q", until: "exit=0")
    }

    @Test func theLastStorefrontAndLanguageOpenAgain() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await launch(storefront)
        defer { tmux.close() }
        try await tmux.press("s", until: "Storefront & Language")
        try tmux.keys("J", literal: true)
        try await tmux.press("Enter", until: "¥160")
        try await tmux.press("q", until: "exit=0")
        try tmux.run("clear")
        try tmux.run("\(storefront.commandLine); echo exit=$?")
        let relaunched = try await tmux.waitFor(text: "¥160")
        #expect(relaunched.contains("JPN · ja_JP"))
        #expect(relaunched.contains("コイン100枚"))
        try await tmux.press("q", until: "exit=0")
    }

    @Test func restorePurchasesLeavesANonRenewingSubscriptionOut() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        for product in ["com.storefront.demo.seasonpass.winter", "com.storefront.demo.removeads"] {
            let bought = try storefront.run(["buy", product])
            #expect(bought.status == 0, "\(bought.stderr)")
        }
        let tmux = try await launch(storefront)
        defer { tmux.close() }
        // StoreKit 1's restore: the non-consumable, not the season pass (not restorable).
        try await tmux.press("r", until: "Restored 1 purchase")
        try await tmux.press("q", until: "exit=0")
    }

    @Test func afterARestoreIntoAFreshAppTheTransactionManagerListsTheSubscription() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let bought = try storefront.run(["buy", "com.storefront.demo.premium.basic.monthly"])
        #expect(bought.status == 0, "\(bought.stderr)")
        // A fresh app: the vault (the app's purchases) goes, the store keeps what it sold.
        for file in ["vault.sfv", "vault.key", "vault.sfv.lock"] {
            try? FileManager.default.removeItem(at: storefront.data.appendingPathComponent(file))
        }
        let tmux = try await launch(storefront)
        defer { tmux.close() }
        try await tmux.press("r", until: "Restored 1 purchase")
        let manager = try await tmux.press("t", until: "Basic (Monthly)  Renews")
        #expect(!manager.contains("No transactions"))
        try await tmux.press("Escape", "q", until: "exit=0")
    }
}

/// Every screen a wait saw, in order (the wait reads them on its own thread).
private final class FrameLog: @unchecked Sendable {
    private let lock = NSLock()
    private var frames: [String] = []

    func append(_ frame: String) { lock.withLock { frames.append(frame) } }
    var all: [String] { lock.withLock { frames } }
}
