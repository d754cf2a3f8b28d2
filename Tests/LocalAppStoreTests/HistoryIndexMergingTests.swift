import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// A compaction adds what it moved to the index's sorted tables in one pass
/// (`HistoryIndex.merging`, `replacing`, `combining`): the tables it writes are the ones a
/// rebuild of every entry would make — checked against a model on generated tables, and against
/// the index made again from `history.dat` after compactions that change compacted entries.
@Suite struct HistoryIndexMergingTests {
    static func entries(
        _ count: Int, keys: Range<UInt64>, values: Range<UInt64>, using g: inout SeededGenerator
    ) -> [HistoryIndex.Entry] {
        (0..<count).map { _ in
            HistoryIndex.Entry(
                key: .random(in: keys, using: &g), value: .random(in: values, using: &g),
                info: .random(in: 0..<4, using: &g))
        }
    }

    @Test(arguments: 1...40 as ClosedRange<UInt64>) func mergingAddsPairsAsASetWould(seed: UInt64) {
        var g = SeededGenerator(state: seed)
        // Pairs carry no info: a table of pairs is a set of (key, value).
        let pairs = { (count: Int, g: inout SeededGenerator) in
            Self.entries(count, keys: 0..<40, values: 0..<6, using: &g).map {
                HistoryIndex.Entry(key: $0.key, value: $0.value)
            }
        }
        let oldSet = Set(pairs(Int.random(in: 0..<120, using: &g), &g))
        let old = oldSet.sorted { ($0.key, $0.value) < ($1.key, $1.value) }
        let added = pairs(Int.random(in: 0..<30, using: &g), &g)
        let expected = oldSet.union(added).sorted { ($0.key, $0.value) < ($1.key, $1.value) }
        #expect(HistoryIndex.merging(old, added) == expected, "seed \(seed)")
    }

    @Test(arguments: 1...40 as ClosedRange<UInt64>) func replacingAndCombiningAreADictionaryUpdate(seed: UInt64) {
        var g = SeededGenerator(state: seed)
        var model: [UInt64: HistoryIndex.Entry] = [:]
        for entry in Self.entries(Int.random(in: 0..<100, using: &g), keys: 0..<60, values: 0..<1000, using: &g) {
            model[entry.key] = entry
        }
        let old = model.values.sorted { $0.key < $1.key }

        var latest: [UInt64: HistoryIndex.Entry] = [:]
        for entry in Self.entries(Int.random(in: 0..<20, using: &g), keys: 0..<80, values: 0..<1000, using: &g) {
            latest[entry.key] = entry
        }
        let replaced = model.merging(latest) { _, new in new }.values.sorted { $0.key < $1.key }
        #expect(HistoryIndex.replacing(old, with: Array(latest.values)) == replaced, "seed \(seed)")

        // A change that adds to the value, and drops the key when the sum is zero.
        var changes: [UInt64: Int] = [:]
        for _ in 0..<Int.random(in: 0..<20, using: &g) {
            changes[.random(in: 0..<80, using: &g)] = Int.random(in: -3...3, using: &g)
        }
        var combinedModel = model
        for (key, change) in changes {
            let value = Int(model[key]?.value ?? 0) + change
            combinedModel[key] =
                value == 0
                ? nil
                : HistoryIndex.Entry(key: key, value: UInt64(bitPattern: Int64(value)), info: model[key]?.info ?? 0)
        }
        let combined = HistoryIndex.combining(old, with: changes.map { ($0.key, $0.value) }) { key, current, change in
            let value = Int(current?.value ?? 0) + change
            return value == 0
                ? nil : HistoryIndex.Entry(key: key, value: UInt64(bitPattern: Int64(value)), info: current?.info ?? 0)
        }
        #expect(combined == combinedModel.values.sorted { $0.key < $1.key }, "seed \(seed)")
    }

    @Test func theTablesCompactionsWriteAreTheOnesTheHistoryMakesAgain() throws {
        let dir = try TemporaryDirectory()
        let journal = try JournalHistoryTests.open(dir, slack: 8)
        let made = try FinishedDigestTests.journalEntries(journal, count: 90, at: 0)
        // Compacted entries changed afterwards: a new version of each moves at a later compaction.
        try FinishedDigestTests.changeCompactedEntries(journal, made)
        _ = try FinishedDigestTests.journalEntries(journal, count: 40, at: 90)
        let written = try #require(journal.state.history?.indexTables())
        #expect(written[0].count > 100, "compacted entries")
        #expect(written.allSatisfy { !$0.isEmpty })

        // The same generation's index made again from history.dat, frame by frame.
        let indexes = try FileManager.default.contentsOfDirectory(atPath: dir.stateDirectory.path).filter {
            $0.hasSuffix(".idx")
        }
        for name in indexes { try FileManager.default.removeItem(at: dir.stateDirectory.appendingPathComponent(name)) }
        let reopened = try JournalHistoryTests.open(dir, slack: 8)
        let rebuilt = try #require(reopened.state.history?.indexTables())
        #expect(reopened.state.history?.generation == journal.state.history?.generation)
        for table in 0..<HistoryIndex.Table.count {
            #expect(written[table] == rebuilt[table], "table \(table)")
        }
    }
}
