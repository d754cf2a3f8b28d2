import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// A compaction writes a run of the index for what it moved, merged with the newest runs while
/// they are small beside it (`LayeredIndex`, `HistoryIndex.merging`, `overlaying`, `summing`):
/// the merges are checked against models on generated tables, the merge policy keeps the runs
/// few and the writing a few times the entries, and every run a compaction wrote is the one
/// made again from the bytes of `history.dat` it covers.
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

    @Test(arguments: 1...40 as ClosedRange<UInt64>) func overlayingAndSummingAreRunsAddedUp(seed: UInt64) {
        var g = SeededGenerator(state: seed)
        func table(_ count: Int, _ g: inout SeededGenerator) -> [HistoryIndex.Entry] {
            var byKey: [UInt64: HistoryIndex.Entry] = [:]
            for entry in Self.entries(count, keys: 0..<60, values: 0..<5, using: &g) {
                byKey[entry.key] = HistoryIndex.Entry(
                    key: entry.key, value: entry.value,
                    info: entry.info | (Bool.random(using: &g) ? HistoryIndex.shadowsBit : 0))
            }
            return byKey.values.sorted { $0.key < $1.key }
        }
        let older = table(Int.random(in: 0..<80, using: &g), &g)
        let newer = table(Int.random(in: 0..<30, using: &g), &g)
        // Overlaying: newer's entry, older's word on runs older than both.
        var model = Dictionary(uniqueKeysWithValues: older.map { ($0.key, $0) })
        for entry in newer {
            var kept = entry
            if let old = model[entry.key] {
                kept.info = (entry.info & ~HistoryIndex.shadowsBit) | (old.info & HistoryIndex.shadowsBit)
            }
            model[entry.key] = kept
        }
        #expect(HistoryIndex.overlaying(older, with: newer) == model.values.sorted { $0.key < $1.key }, "seed \(seed)")
        // Summing: values and infos add up (wrapping), zero sums leave.
        var sums: [UInt64: (UInt64, UInt64)] = [:]
        for entry in older + newer {
            let (value, info) = sums[entry.key] ?? (0, 0)
            sums[entry.key] = (value &+ entry.value, info &+ entry.info)
        }
        let expected = sums.filter { $0.value.0 != 0 || $0.value.1 != 0 }.map {
            HistoryIndex.Entry(key: $0.key, value: $0.value.0, info: $0.value.1)
        }.sorted { $0.key < $1.key }
        #expect(HistoryIndex.summing(older, newer) == expected, "seed \(seed)")
    }

    @Test func aNewRunMergesWithTheNewestRunsOnlyWhileTheyAreSmallBesideIt() {
        #expect(LayeredIndex.mergeCount(sizes: [], adding: 5) == 0)
        #expect(LayeredIndex.mergeCount(sizes: [100_000], adding: 85) == 0)
        #expect(LayeredIndex.mergeCount(sizes: [100_000, 170], adding: 85) == 1)
        #expect(LayeredIndex.mergeCount(sizes: [100_000, 340, 170], adding: 85) == 2)
        #expect(LayeredIndex.mergeCount(sizes: [300, 100, 40], adding: 40) == 3)
        // Runs four times the next newer one, as many as allowed: one more merges with the newest.
        let most = (0..<LayeredIndex.maximumRuns).map { 1 << (60 - 2 * $0) }
        #expect(LayeredIndex.mergeCount(sizes: most, adding: 1) == 1)
        #expect(LayeredIndex.mergeCount(sizes: Array(most.dropLast()), adding: 1) == 0)
        // A run of one entry a compaction from nothing: the runs stay a handful, and what the
        // compactions wrote in all is a few times the entries, not entries × compactions.
        var sizes: [Int] = []
        var written = 0
        for _ in 0..<10_000 {
            let merging = LayeredIndex.mergeCount(sizes: sizes, adding: 1)
            let merged = 1 + sizes.suffix(merging).reduce(0, +)
            sizes.removeLast(merging)
            sizes.append(merged)
            written += merged
            #expect(sizes.count <= 15)
        }
        #expect(sizes.reduce(0, +) == 10_000)
        #expect(written < 10_000 * 20, "\(written) entries written")
    }

    /// Compactions with entries changed after they were compacted (new versions in newer runs):
    /// each run's tables, as the compactions wrote or merged them, are those made again from
    /// the bytes of history.dat it covers; and the positions, ranks and counts over the runs
    /// are those of the IDs in order.
    @Test func theRunsCompactionsWriteAreTheOnesTheHistoryMakesAgain() throws {
        let dir = try TemporaryDirectory()
        let journal = try JournalHistoryTests.open(dir, slack: 8)
        var made: [QueueEntry] = []
        for round in 0..<6 {
            made += try FinishedDigestTests.journalEntries(journal, count: 45, at: made.count)
            // Compacted entries changed afterwards: a new version of each moves at a later compaction.
            try FinishedDigestTests.changeCompactedEntries(journal, Array(made[(round * 45)...]))
        }
        let history = try #require(journal.state.history)
        #expect(history.runs.count > 1, "several runs: \(history.runs)")
        let written = try #require(history.runTables())
        #expect(written.count == history.runs.count)
        let shadowing = written.flatMap { $0[0] }.filter(\.shadows)
        #expect(!shadowing.isEmpty, "newer versions of compacted entries")

        let ids = Set(made.map(\.id)).compactMap(UInt64.init).sorted()
        let compacted = ids.filter { history.entry(id: String($0)) != nil }
        #expect(history.count == compacted.count)
        #expect(history.identifiers() == compacted)
        for (position, id) in compacted.enumerated() {
            #expect(history.identifier(at: position) == id, "position \(position)")
            #expect(history.rank(of: id) == position)
        }
        #expect(history.identifier(at: compacted.count) == nil)
        // Positions over the runs and the journal, walked up, down and at random.
        let order = journal.state.order
        let everyID = ids.map(String.init)
        #expect(order.count == everyID.count)
        #expect((0..<order.count).map { order[$0] } == everyID)
        #expect((0..<order.count).reversed().map { order[$0] } == everyID.reversed())
        var g = SeededGenerator(state: 7)
        for _ in 0..<200 {
            let position = Int.random(in: 0..<order.count, using: &g)
            #expect(order[position] == everyID[position], "position \(position)")
        }

        // Every run made again from history.dat, frame by frame.
        let indexes = try FileManager.default.contentsOfDirectory(atPath: dir.stateDirectory.path).filter {
            $0.hasSuffix(".idx")
        }
        for name in indexes { try FileManager.default.removeItem(at: dir.stateDirectory.appendingPathComponent(name)) }
        let reopened = try JournalHistoryTests.open(dir, slack: 8)
        let rebuilt = try #require(reopened.state.history?.runTables())
        #expect(reopened.state.history?.runs == history.runs)
        for (number, (a, b)) in zip(written, rebuilt).enumerated() {
            for table in 0..<HistoryIndex.Table.count {
                #expect(a[table] == b[table], "run \(number), table \(table)")
            }
        }
    }
}
