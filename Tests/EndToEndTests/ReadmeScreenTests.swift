import Foundation
import TestSupport
import Testing

/// README's picture of the storefront ("The storefront") is the screen the built storefront
/// shows in a 100 × 30 terminal on a fresh data directory and the bundled catalog, as
/// `scripts/capture-screen` records it: a change to the list, its columns or its key bar that
/// leaves the picture behind fails here (it had: the key bar and the price column).
@Suite(.waitsOnProcesses, .serialized) struct ReadmeScreenTests {
    static let start = "<!-- storefront-screen:start -->\n```text\n"
    static let end = "\n```\n<!-- storefront-screen:end -->"

    /// The picture between README's markers.
    static func readmeScreen() throws -> String {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let from = try #require(readme.range(of: start), "README.md has no storefront-screen block")
        let to = try #require(
            readme.range(of: end, range: from.upperBound..<readme.endIndex), "its block is not closed")
        return String(readme[from.upperBound..<to.lowerBound])
    }

    /// A pane's text as the script keeps it: `ScreenText.trimmed`, without the empty lines at
    /// the end.
    static func trimmed(_ screen: String) -> String {
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        while lines.last?.allSatisfy({ $0 == " " }) == true { lines.removeLast() }
        return ScreenText.trimmed(lines)
    }

    @Test func theReadmePictureIsTheFirstScreen() async throws {
        let storefront = try StorefrontCLI(prefix: "storefront-readme-screen")
        let tmux = try await TUIEndToEndTests.open(storefront, width: 100, height: 30)
        defer { tmux.close() }
        // The whole first frame: the description pane and the key bar too, not only the list.
        let screen = Self.trimmed(
            try await tmux.waitFor("the first frame") { $0.contains("A handful of coins") && $0.contains("Enter Buy") })
        #expect(
            screen == (try Self.readmeScreen()), "README.md's storefront screen is stale: run scripts/capture-screen")
    }
}
