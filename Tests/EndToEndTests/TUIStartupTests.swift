import Foundation
import TestSupport
import Testing

/// Issue 13's launch → first frame: the storefront draws its first frame from the catalog alone
/// and opens its store (the journal, the vault, the hosted content's check, the engine) after
/// it. What that open finds wrong still ends the storefront with the message, exit 1, and the
/// terminal given back, as when the store was opened before the terminal was taken.
@Suite(.waitsOnProcesses, .serialized) struct TUIStartupTests {
    /// Runs the storefront on `storefront`'s directory and waits for the shell's prompt after it.
    func runUntilItEnds(_ tmux: TUITmux, _ storefront: StorefrontCLI) async throws -> String {
        try tmux.run("\(storefront.commandLine); echo exit=$?")
        // `exit=` and a digit: the command line typed says `exit=$?`.
        try await tmux.waitFor("the shell after the storefront") { $0.range(of: #"exit=[0-9]"#, options: .regularExpression) != nil }
        #expect(try !tmux.alternateScreenOn())
        // Long lines wrap at the pane's width: read them joined.
        return try tmux.capture().split(separator: "\n").joined()
    }

    @Test func aJournalThatCannotBeReadEndsItWithTheReasonAndExit1() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let journal = storefront.data.appendingPathComponent("store/journal.jsonl")
        try Data("not a journal\n".utf8).write(to: journal)
        let tmux = try await TUITmux(width: 250, height: 40, directory: TUIEndToEndTests.repositoryRoot)
        defer { tmux.close() }
        let screen = try await runUntilItEnds(tmux, storefront)
        #expect(screen.contains("storefront: cannot open the local App Store: \(journal.path)"), "\(screen)")
        #expect(screen.contains("exit=1"), "\(screen)")
    }

    @Test func hostedContentThatDoesNotMatchItsManifestEndsItWithTheReasonAndExit1() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        // The first frame needs only the manifests; the store's open checks the files.
        let music = storefront.scratch.url.appendingPathComponent("Demo.content/com.storefront.demo.levelpack.forest/music.bin")
        try Data(repeating: 1, count: 10).write(to: music)
        let tmux = try await TUITmux(width: 250, height: 40, directory: TUIEndToEndTests.repositoryRoot)
        defer { tmux.close() }
        let screen = try await runUntilItEnds(tmux, storefront)
        #expect(screen.contains("storefront: cannot load the catalog:"), "\(screen)")
        #expect(screen.contains("has 10 bytes"), "\(screen)")
        #expect(screen.contains("exit=1"), "\(screen)")
    }
}
