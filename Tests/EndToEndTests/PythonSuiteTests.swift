import Foundation
import TestSupport
import Testing

/// The Python suite (Tests/Python, one runner and one harness, in the venv of
/// `scripts/python-venv` with Apple's pinned `app-store-server-library`): Apple's own code
/// judges the built `storefront`. `SignedDataVerifier` checks what it signs, offline and with
/// online checks answered by `storefront serve`'s `/ocsp`; `AppStoreServerAPIClient` calls every
/// endpoint of `serve` (every public method of the class: `apple-client: N of N methods
/// answered`); `ReceiptUtility` reads its receipts; and the README's "Testing your server" and
/// the server guide's "Server notifications" (Docs/server.md) run as written. `make python-suite`
/// runs the same runner alone.
@Suite(.waitsOnProcesses, .timeLimit(.minutes(10)))
struct PythonSuiteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func applesLibraryAcceptsWhatTheStoreSignsAndServesAndTheReadmeRunsAsWritten() async throws {
        // Makes .build/venv with the pinned library when missing (the first run needs PyPI).
        let venv = try await ChildProcess.runDetached(
            Self.root.appendingPathComponent("scripts/python-venv"), currentDirectory: Self.root)
        try #require(venv.status == 0, "scripts/python-venv failed:\n\(venv.output)")
        let python = Self.root.appendingPathComponent(
            venv.stdout.split(separator: "\n").last.map(String.init) ?? ".build/venv/bin/python")
        // The waits happen on a dispatch thread, not on the 2-thread cooperative pool, which the
        // suite (a minute or more of child processes) would otherwise hold from every other test.
        // The timeout guards against a hang only: alone the suite takes ~4 minutes on 2 cores,
        // and beside the rest of `swift test` on a loaded machine it has needed more than 540 s.
        let suite = try await ChildProcess.runDetached(
            python, ["Tests/Python/run.py"],
            environment: [
                "STOREFRONT_BIN": StorefrontProcess.executable.path, "PYTHONDONTWRITEBYTECODE": "1",
            ], currentDirectory: Self.root, timeout: .seconds(1200))
        #expect(suite.status == 0 && !suite.timedOut, "Apple's library refused something:\n\(suite.output)")
        let summary = try #require(suite.stdout.split(separator: "\n").last { $0.hasPrefix("python-suite: ") })
        #expect(summary.hasSuffix(" 0 failed"), "\(suite.output)")
        #expect(!summary.hasPrefix("python-suite: 0 passed"), "\(suite.output)")
        // Every public method of Apple's client is answered (test_apple_client reads them from the class).
        let answered = try #require(suite.stdout.split(separator: "\n").first { $0.hasPrefix("apple-client: ") })
        print(answered)
        let counts = answered.split(separator: " ").compactMap { Int($0) }
        #expect(counts.count == 2 && counts[0] == counts[1] && counts[0] >= 30, "\(answered)")
    }
}
