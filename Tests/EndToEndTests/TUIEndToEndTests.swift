import Foundation
import TestSupport
import Testing

/// The storefront in a real terminal: tmux runs the built binary; the test types keys and
/// reads the screen.
@Suite(.waitsOnProcesses, .serialized) struct TUIEndToEndTests {
    static var repositoryRoot: URL {
        Repository.root
    }

    /// A fresh data directory (zero latency, unlimited bandwidth) beside a copy of the Demo
    /// catalog whose Forest Level Pack carries 3 MB of hosted content.
    static func freshStorefront() throws -> StorefrontCLI {
        var storefront = try StorefrontCLI(prefix: "storefront-tui", instant: false)
        let dir = storefront.scratch.url
        storefront.catalog = dir.appendingPathComponent("Demo.storekit")
        let forest = "com.storefront.demo.levelpack.forest"
        let content = dir.appendingPathComponent("Demo.content/\(forest)")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        for file in ["Demo.storekit", "Demo.prices.json"] {
            try FileManager.default.copyItem(
                at: repositoryRoot.appendingPathComponent("Catalogs/\(file)"), to: dir.appendingPathComponent(file))
        }
        var entries: [String] = []
        for (index, (path, size)) in [("levels.bin", 2_000_000), ("music.bin", 1_000_000)].enumerated() {
            let url = content.appendingPathComponent(path)
            try Data(DownloadCommandTests.bytes(size, seed: UInt64(index + 7))).write(to: url)
            entries.append(#"{"path": "\#(path)", "size": \#(size), "sha256": "\#(try FileHash.sha256(url))"}"#)
        }
        let manifest = #"{"version": 1, "contentVersion": "1.0", "files": [\#(entries.joined(separator: ", "))]}"#
        try Data(manifest.utf8).write(to: content.appendingPathComponent("manifest.json"))
        try storefront.set([("latency", "0"), ("bandwidth", "0")])
        return storefront
    }

    /// Runs the storefront on `storefront`'s directory in the pane and waits for its list; with
    /// `reportingExit`, the shell prints `exit=STATUS` when it ends.
    static func launch(
        _ tmux: TUITmux, _ storefront: StorefrontCLI, environment: String = "", reportingExit: Bool = false
    ) async throws {
        try tmux.run(environment + storefront.commandLine + (reportingExit ? "; echo exit=$?" : ""))
        try await tmux.waitFor(text: "100 Coins")
    }

    /// A new pane of `width` × `height` with the storefront launched in it (`launch`).
    static func open(
        _ storefront: StorefrontCLI, width: Int = 100, height: Int = 30, environment: String = "",
        reportingExit: Bool = false
    ) async throws -> TUITmux {
        let tmux = try await TUITmux(width: width, height: height, directory: repositoryRoot)
        do {
            try await launch(tmux, storefront, environment: environment, reportingExit: reportingExit)
        } catch {
            tmux.close()
            throw error
        }
        return tmux
    }

    /// A pane of 110 × 32 with the storefront launched in it (`open`) and its Transaction Manager
    /// (t) showing the rows that `loaded` waits for; the pane and that screen.
    static func openTransactions(
        _ storefront: StorefrontCLI, showing what: String, _ loaded: @escaping @Sendable (String) -> Bool
    ) async throws -> (TUITmux, String) {
        let tmux = try await open(storefront, width: 110, height: 32)
        do {
            try tmux.keys("t")
            return (tmux, try await tmux.waitFor(what, loaded))
        } catch {
            tmux.close()
            throw error
        }
    }

    /// Filters the list to `name` and buys the one match through the confirmation sheet.
    static func buy(_ tmux: TUITmux, _ name: String) async throws {
        // A fresh query (^U clears what an earlier purchase left in the field).
        try tmux.keys("/")
        try tmux.keys("C-u")
        try await tmux.press(name, literal: true, until: "(1/19)")
        try tmux.keys("Enter")
        try await tmux.press("Enter", until: "Confirm Your In-App Purchase")
        try tmux.keys("Enter")
    }

    @Test func buyRestoreSwitchStorefrontQuitAndRelaunch() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront)
        defer { tmux.close() }
        #expect(try tmux.alternateScreenOn())

        // A consumable: the balance shows in the list.
        try await Self.buy(tmux, "100 Coins")
        try await tmux.waitFor(text: "Balance 1")

        // A non-consumable with hosted content: its download reaches 100 % and it is owned.
        // (Escape closes the finished purchase's sheet if it still shows, then the filter.)
        try tmux.keys("Escape", "Escape")
        try await Self.buy(tmux, "Forest Level Pack")
        try await tmux.waitFor(text: "Owned")
        try tmux.keys("Escape", "Escape")
        // The event log tells the download reached its end.
        try await tmux.press("l", until: "Download of Forest Level Pack finished")
        try tmux.keys("l")

        // Restore from the menu; the event log keeps the result after the message fades.
        try tmux.keys("l")
        try await tmux.press("m", until: "Restore Purchases")
        try await tmux.press("Enter", until: "Restored 1 purchase")
        try tmux.keys("l")

        // Storefront & Language: JPN shows yen prices and Japanese names at once.
        try await tmux.press("s", until: "Storefront & Language")
        try await tmux.press("J", literal: true, until: "→ JPN")
        let japanese = try await tmux.press("Enter", until: "¥160")
        #expect(japanese.contains("コイン100枚"))

        // Quit: the terminal comes back (alternate screen off, the shell prompt again).
        try await tmux.quit(gone: "コイン100枚")
        #expect(try !tmux.alternateScreenOn())

        // A second launch shows what the account owns, in the storefront and language chosen last.
        try tmux.run("\(storefront.commandLine)")
        try await tmux.waitFor(text: "コイン100枚")
        try await tmux.waitFor(text: "残高 1")
        try await tmux.waitFor(text: "購入済み")
        try await tmux.quit(gone: "コイン100枚")
        #expect(try !tmux.alternateScreenOn())
    }

    @Test func sigtermAndCtrlCRestoreTheTerminal() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront)
        defer { tmux.close() }
        try tmux.keys("C-c")
        try await tmux.waitFor("the prompt after Ctrl-C") { $0.contains(TUITmux.prompt) && !$0.contains("100 Coins") }
        #expect(try !tmux.alternateScreenOn())

        try await Self.launch(tmux, storefront)
        let pid = try tmux.tmux(["display-message", "-p", "-t", tmux.session, "#{pane_pid}"])
        // The pane's process is the shell; the storefront is its child.
        let children = try String(
            contentsOfFile:
                "/proc/\(pid.trimmingCharacters(in: .whitespacesAndNewlines))/task/\(pid.trimmingCharacters(in: .whitespacesAndNewlines))/children",
            encoding: .utf8)
        let child = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
        kill(child, SIGTERM)
        try await tmux.waitFor("the prompt after SIGTERM") { $0.contains(TUITmux.prompt) && !$0.contains("100 Coins") }
        #expect(try !tmux.alternateScreenOn())
    }

    @Test func killedDuringAPurchaseCompletesOnTheNextLaunch() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront, environment: "STOREFRONT_FAULT=after-charge ")
        defer { tmux.close() }
        try await Self.buy(tmux, "100 Coins")
        // The process kills itself with SIGKILL once the store has charged.
        try await tmux.waitFor("the shell after SIGKILL") { $0.contains(TUITmux.prompt) && $0.contains("Killed") }

        // SIGKILL leaves the terminal as it was; a fresh pane runs the next launch.
        let next = try await TUIEndToEndTests.open(storefront)
        defer { next.close() }
        try await next.waitFor(text: "Balance 1")
        try await next.quit()
        let history = try storefront.run(["history", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        let balances = try #require(json["balances"] as? [String: Int])
        #expect(balances == ["com.storefront.demo.coins.100": 1], "charged once, delivered once")
    }
}
