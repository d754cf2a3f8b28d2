import Foundation
import StoreCore
import TestSupport
import Testing

@testable import StorefrontUI

/// The storefront guide's key table (Docs/storefront.md) says what the keys do on the product
/// list: its quit and Esc rows are checked against the reducer.
@Suite struct KeyTableTests {
    /// The rows of the guide's key table under "## Keys": (keys, what they do).
    static func keyRows() throws -> [(keys: String, does: String)] {
        let guide = try String(contentsOf: Repository.url("Docs/storefront.md"), encoding: .utf8)
        let section = try #require(guide.range(of: "## Keys"), "Docs/storefront.md has no key section")
        return guide[section.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("| key |") }.dropFirst(2)
            .prefix { $0.hasPrefix("|") }
            .map { line in
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                return (cells[1], cells[2])
            }
    }

    /// QA: the key table said `q / Esc | quit`, and Esc on the list did nothing.
    @Test func everyKeyTheQuitRowNamesQuitsFromTheList() throws {
        let row = try #require(try Self.keyRows().first { $0.does.hasPrefix("quit") }, "the guide names no quit key")
        let names: [String: Key] = ["q": .character("q"), "Esc": .escape, "Ctrl-C": .control("c")]
        for name in row.keys.components(separatedBy: " / ") {
            let key = try #require(names[name], "unknown key \(name) in the guide's quit row")
            var state = Fixtures.loaded()
            #expect(send(&state, .key(key)) == [.quit], "the guide says \(name) quits")
        }
    }

    /// Esc goes back and never quits, as the guide's Esc row says: on the list, with a filter, and
    /// on a terminal too small to draw in.
    @Test func escNeverQuits() throws {
        let row = try #require(try Self.keyRows().first { $0.keys == "Esc" }, "the guide has no Esc row")
        #expect(row.does.contains("never quits"))
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.escape)) == [])
        send(&state, .key(.character("/")), .key(.character("x")), .key(.enter))
        #expect(send(&state, .key(.escape)) == [])
        #expect(state.catalog.filter.isEmpty)
        send(&state, .resize(width: 50, height: 12))
        #expect(send(&state, .key(.escape)) == [])
        #expect(!state.isQuitting)
    }
}
