import Foundation
import StoreCore
import TestSupport
import Testing

@testable import StorefrontUI

/// README's storefront key table says what the keys do on the product list: its quit row is
/// checked against the reducer.
@Suite struct ReadmeKeysTests {
    /// The rows of README's key table under "## The storefront": (keys, what they do).
    static func keyRows() throws -> [(keys: String, does: String)] {
        let readme = try String(contentsOf: Repository.url("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## The storefront"), "README has no storefront section")
        return readme[section.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("| key |") }.dropFirst(2)
            .prefix { $0.hasPrefix("|") }
            .map { line in
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                return (cells[1], cells[2])
            }
    }

    /// QA: README said `q / Esc | quit`, and Esc on the list did nothing.
    @Test func everyKeyTheQuitRowNamesQuitsFromTheList() throws {
        let row = try #require(try Self.keyRows().first { $0.does.hasPrefix("quit") }, "README names no quit key")
        let names: [String: Key] = ["q": .character("q"), "Esc": .escape, "Ctrl-C": .control("c")]
        for name in row.keys.components(separatedBy: " / ") {
            let key = try #require(names[name], "unknown key \(name) in README's quit row")
            var state = Fixtures.loaded()
            #expect(send(&state, .key(key)) == [.quit], "README says \(name) quits")
        }
    }

    /// Esc goes back and never quits, as README's Esc row says: on the list, with a filter, and
    /// on a terminal too small to draw in.
    @Test func escNeverQuits() throws {
        let row = try #require(try Self.keyRows().first { $0.keys == "Esc" }, "README has no Esc row")
        #expect(row.does.contains("never quits"))
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.escape)) == [])
        send(&state, .key(.character("/")), .key(.character("x")), .key(.enter))
        #expect(send(&state, .key(.escape)) == [])
        #expect(state.filter.isEmpty)
        send(&state, .resize(width: 50, height: 12))
        #expect(send(&state, .key(.escape)) == [])
        #expect(!state.isQuitting)
    }
}
