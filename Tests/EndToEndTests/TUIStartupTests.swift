import Foundation
import TestSupport
import Testing

/// Issue 13's launch → first frame: the storefront draws its first frame from the catalog alone
/// and opens its store (the journal, the vault, the hosted content's check, the engine) after
/// it. What that open finds wrong still ends the storefront with the message, exit 1, and the
/// terminal given back, as when the store was opened before the terminal was taken.
@Suite(.waitsOnProcesses, .serialized) struct TUIStartupTests {
    /// Writes `damage` to `file`, runs the storefront on `storefront`'s directory, waits for the
    /// shell's prompt after it, expects exit 1 with the terminal given back, and returns the screen.
    func screenAfterWriting(_ damage: String, to file: URL, _ storefront: StorefrontCLI) async throws -> String {
        try Data(damage.utf8).write(to: file)
        let tmux = try await TUITmux(width: 250, height: 40, directory: TUIEndToEndTests.repositoryRoot)
        defer { tmux.close() }
        try tmux.run("\(storefront.commandLine); echo exit=$?")
        // `exit=` and a digit: the command line typed says `exit=$?`.
        try await tmux.waitFor("the shell after the storefront") {
            $0.range(of: #"exit=[0-9]"#, options: .regularExpression) != nil
        }
        #expect(try !tmux.alternateScreenOn())
        // Long lines wrap at the pane's width: read them joined.
        let screen = try tmux.capture().split(separator: "\n").joined()
        #expect(screen.contains("exit=1"), "\(screen)")
        return screen
    }

    @Test func aJournalThatCannotBeReadEndsItWithTheReasonAndExit1() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let journal = storefront.data.appendingPathComponent("store/journal.jsonl")
        let screen = try await screenAfterWriting("not a journal\n", to: journal, storefront)
        #expect(screen.contains("storefront: cannot open the local App Store: \(journal.path)"), "\(screen)")
    }

    @Test func hostedContentThatDoesNotMatchItsManifestEndsItWithTheReasonAndExit1() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        // The first frame needs only the manifests; the store's open checks the files.
        let music = storefront.scratch.url.appendingPathComponent(
            "Demo.content/com.storefront.demo.levelpack.forest/music.bin")
        let screen = try await screenAfterWriting(String(repeating: "\u{1}", count: 10), to: music, storefront)
        #expect(screen.contains("storefront: cannot load the catalog:"), "\(screen)")
        #expect(screen.contains("has 10 bytes"), "\(screen)")
    }

    @Test func aCatalogThatCannotBeReadEndsItWithTheReasonAndExit1() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        // The terminal is set up while the catalog loads: it is given back before the message.
        let catalog = try #require(storefront.catalog)
        let screen = try await screenAfterWriting("{ \"products\": [", to: catalog, storefront)
        #expect(screen.contains("storefront: cannot load the catalog: \(catalog.path)"), "\(screen)")
    }
}
