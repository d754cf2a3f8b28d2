import Foundation
import TestSupport
import Testing

@testable import storefront_bench

/// `make bench` rewrites the figures table of Docs/performance.md: the rows of the sections it
/// ran replace theirs, the others stay, in the bench's order.
@Suite struct PerformanceTableTests {
    typealias Row = PerformanceTable.Row

    static func document(_ rows: [Row]) -> String {
        (["# Figures", "", "Text before.", "", PerformanceTable.start] + PerformanceTable.header + rows.map(\.line)
            + [PerformanceTable.end, "", "Text after.", ""]).joined(separator: "\n")
    }

    @Test func aRunReplacesTheRowsOfItsSectionsAndKeepsTheOthers() throws {
        let old = Self.document([
            Row(section: "catalog", figure: "load", value: "40 ms", note: "old"),
            Row(section: "history", figure: "buy", value: "1.00×", note: "old"),
            Row(section: "ui", figure: "frame", value: "400 µs", note: "old"),
        ])
        let new = [
            Row(section: "history", figure: "buy", value: "0.95×", note: "goal ≤ 1.2×"),
            Row(section: "history", figure: "history | limit", value: "0.92×", note: "cpu"),
        ]
        let updated = try PerformanceTable.updating(
            old, with: new, ran: ["history"], order: ["catalog", "store", "history", "ui"])
        let rows = updated.split(separator: "\n").compactMap { Row(line: String($0)) }
        #expect(rows.map(\.section) == ["catalog", "history", "history", "ui"])
        #expect(rows[1] == new[0])
        #expect(rows[2] == new[1], "a pipe in a cell survives the round trip")
        #expect(rows[0].note == "old" && rows[3].note == "old")
        #expect(updated.hasPrefix("# Figures\n\nText before.\n\n"))
        #expect(updated.hasSuffix("\n\nText after.\n"))
        // Running again with the same rows changes nothing.
        #expect(
            try PerformanceTable.updating(updated, with: new, ran: ["history"], order: ["catalog", "history", "ui"])
                == updated)
    }

    @Test func aDocumentWithoutTheMarkersIsRefused() {
        #expect(throws: PerformanceTable.Failure.self) {
            try PerformanceTable.updating("# Figures\n", with: [], ran: [], order: [])
        }
    }

    /// The page holds the table, and its rows name only sections the bench has.
    @Test func thePerformancePageHoldsTheTableOfTheBenchsSections() throws {
        let page = try String(contentsOf: Repository.url("Docs/performance.md"), encoding: .utf8)
        let from = try #require(page.range(of: PerformanceTable.start), "Docs/performance.md lacks the table's start")
        let to = try #require(page.range(of: PerformanceTable.end), "Docs/performance.md lacks the table's end")
        let rows = page[from.upperBound..<to.lowerBound].split(separator: "\n").compactMap { Row(line: String($0)) }
        #expect(!rows.isEmpty, "the table has no figures: run `make bench`")
        var names: Set<String> = []
        let declaration = try Regex(#"let name = "([a-z]+)""#)
        for file in try FileManager.default.contentsOfDirectory(atPath: Repository.url("Sources/storefront-bench").path)
        where file.hasSuffix(".swift") {
            let text = try String(contentsOf: Repository.url("Sources/storefront-bench/\(file)"), encoding: .utf8)
            for match in text.matches(of: declaration) { names.insert(String(match.output[1].substring ?? "")) }
        }
        #expect(names.count > 10)
        #expect(Set(rows.map(\.section)).subtracting(names).sorted() == [], "rows of sections the bench lacks")
    }
}
