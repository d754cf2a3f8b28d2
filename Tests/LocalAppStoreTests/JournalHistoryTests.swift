import Foundation
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// The journal's compacted history (`history.dat` and its index): what compaction moves out
/// is found again exactly, a journal of version 1 is read and migrated, a damaged or lost
/// index is made again, and a damaged history is a clear error, never wrong data.
@Suite(.timeLimit(.minutes(10))) struct JournalHistoryTests {
    static func entry(
        _ id: String, product: String = TestCatalog.coins, type: ProductType = .consumable,
        account: String = "a", finished: Bool = true, original: String? = nil, period: String? = nil,
        requestID: String? = nil
    ) -> QueueEntry {
        QueueEntry(
            transaction: Transaction(
                transactionID: id, originalTransactionID: original, productID: product, productType: type,
                payment: Payment(productID: product, orderData: ["id": id], requestID: requestID ?? "request-\(id)"),
                state: .purchased, purchaseDate: Date(timeIntervalSince1970: 1_700_000_000 + (Double(id) ?? 0)),
                webOrderLineItemID: period),
            accountID: account, charged: true, finished: finished, pending: nil, owner: nil)
    }

    /// Journals `count` purchases one write each (IDs from the counter), finished or not.
    static func purchase(
        _ journal: StoreJournal, count: Int, finished: (Int) -> Bool = { _ in true }
    ) throws -> [QueueEntry] {
        var made: [QueueEntry] = []
        for n in 0..<count {
            let (entry, _) = try journal.transact { state throws(LocalAppStoreError) in
                let entry = Self.entry(state.allocateTransactionID(), finished: finished(n))
                return ([JournalRecord.make(entry)], entry)
            }
            made.append(entry)
        }
        return made
    }

    static func open(
        _ dir: TemporaryDirectory, slack: Int = StoreJournal.defaultCompactionSlack,
        fileSystem: any FileSystem = POSIXFileSystem()
    ) throws -> StoreJournal {
        try StoreJournal(
            directory: dir.stateDirectory.path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(),
            compactionSlack: slack, fileSystem: fileSystem)
    }

    @Test func compactedEntriesAreFoundByIDRequestAndGrantAndTheJournalStaysShort() throws {
        let dir = try TemporaryDirectory()
        let journal = try Self.open(dir, slack: 16)
        let made = try Self.purchase(journal, count: 200, finished: { $0 % 50 != 7 })
        let reopened = try Self.open(dir, slack: 16)
        let state = reopened.state
        #expect(state.history != nil)
        #expect(state.history!.count > 150, "most entries were compacted")
        #expect(try String(contentsOf: dir.journal, encoding: .utf8).split(separator: "\n").count < 40)
        #expect(state.orderedEntries == made)
        for entry in [made[0], made[99], made[199]] {
            #expect(state.entries[entry.id] == entry)
            #expect(state.entry(requestID: entry.transaction.payment.requestID) == entry)
            #expect(state.sameGrant(as: entry) == [entry])
        }
        #expect(state.entry(requestID: "nobody asked") == nil)
        #expect(state.entries["2999999999999999"] == nil)
        #expect(state.unfinishedEntries.map(\.id) == made.enumerated().filter { $0.offset % 50 == 7 }.map(\.element.id))
        #expect(state.nextTransactionID == UInt64(made.last!.id)! + 1)
        #expect(reopened.state.history?.failure == nil)
    }

    @Test func aCompactedEntryChangedLaterReadsAsItsNewVersionBeforeAndAfterTheNextCompaction() throws {
        let dir = try TemporaryDirectory()
        let journal = try Self.open(dir, slack: 8)
        let made = try Self.purchase(journal, count: 40)
        var refunded = made[3]
        refunded.transaction.revocationDate = Date(timeIntervalSince1970: 1_800_000_000)
        refunded.finished = false
        _ = try journal.transact { _ throws(LocalAppStoreError) in ([JournalRecord.make(refunded)], ()) }
        #expect(try Self.open(dir, slack: 8).state.entries[refunded.id] == refunded)
        #expect(try Self.open(dir, slack: 8).state.unfinishedEntries.map(\.id) == [refunded.id])
        refunded.finished = true
        _ = try journal.transact { _ throws(LocalAppStoreError) in ([JournalRecord.make(refunded)], ()) }
        _ = try Self.purchase(journal, count: 20)
        let state = try Self.open(dir, slack: 8).state
        #expect(state.entries[refunded.id] == refunded)
        #expect(state.entry(requestID: refunded.transaction.payment.requestID) == refunded)
        #expect(state.unfinishedEntries.isEmpty)
    }

    @Test func aJournalOfVersionOneIsReadAndMigrated() throws {
        let dir = try TemporaryDirectory()
        // As version 1 wrote it: a header, the settings, every change as a line.
        var journal = try LegacyJournal(version: 1, settings: LocalStoreSettings())
        var expected: [QueueEntry] = []
        for n in 0..<600 {
            var entry = Self.entry("\(2_000_000_000_000_001 + n)", finished: false)
            try journal.append(JournalRecord.make(entry))
            entry.finished = n % 100 != 0
            try journal.append(JournalRecord.make(entry))
            expected.append(entry)
        }
        try journal.write(to: dir)
        let migrated = try Self.open(dir)
        #expect(migrated.state.orderedEntries == expected)
        let header = try String(contentsOf: dir.journal, encoding: .utf8).split(separator: "\n")[0]
        #expect(header.contains("\"version\":\(JournalRecord.currentVersion)"))
        #expect(FileManager.default.fileExists(atPath: dir.stateDirectory.appendingPathComponent("history.dat").path))
        let reopened = try Self.open(dir)
        #expect(reopened.state.orderedEntries == expected)
        #expect(reopened.state.unfinishedEntries.count == 6)
        #expect(reopened.state.nextTransactionID == 2_000_000_000_000_601)
    }

    @Test func aLostOrDamagedIndexIsMadeAgainFromTheHistory() throws {
        let dir = try TemporaryDirectory()
        let journal = try Self.open(dir, slack: 8)
        let made = try Self.purchase(journal, count: 60)
        let generations = try FileManager.default.contentsOfDirectory(atPath: dir.stateDirectory.path).compactMap {
            name -> UInt64? in
            name.hasPrefix("history-") && name.hasSuffix(".idx") ? UInt64(name.dropFirst(8).dropLast(4)) : nil
        }
        let current = dir.stateDirectory.appendingPathComponent("history-\(try #require(generations.max())).idx")
        try Self.damageIndex(current, every: 97) { what throws in
            #expect(try Self.open(dir, slack: 8).state.orderedEntries == made, "\(what)")
        }
    }

    /// Damages the index at `file` one byte at a time (every `step`-th byte flipped in turn),
    /// then removes it, running `check` after each (with what was done), and expects the
    /// index made again at the end.
    static func damageIndex(_ file: URL, every step: Int, check: (String) throws -> Void) throws {
        let original = try Data(contentsOf: file)
        for position in stride(from: 0, to: original.count, by: step) {
            var damaged = original
            damaged[position] ^= 0x20
            try damaged.write(to: file)
            try check("byte \(position) flipped")
        }
        try FileManager.default.removeItem(at: file)
        try check("removed")
        #expect(FileManager.default.fileExists(atPath: file.path), "made again")
    }

    @Test func aDamagedHistoryIsAClearErrorAndNothingIsDecidedOnIt() throws {
        let dir = try TemporaryDirectory()
        let journal = try Self.open(dir, slack: 8)
        let made = try Self.purchase(journal, count: 40)
        let history = dir.stateDirectory.appendingPathComponent("history.dat")
        var bytes = try Data(contentsOf: history)
        bytes[40] ^= 0x01  // inside the first frame's entry
        try bytes.write(to: history)
        let reopened = try Self.open(dir, slack: 8)
        #expect(reopened.state.entries[made[0].id] == nil)
        guard case .corrupt(let path, _, _)? = reopened.state.history?.failure else {
            Issue.record("no failure recorded")
            return
        }
        #expect(path == history.path)
        #expect(throws: LocalAppStoreError.self) {
            _ = try reopened.transact { state throws(LocalAppStoreError) in
                ([JournalRecord.make(Self.entry(made[0].id))], state.entries[made[0].id])
            }
        }
    }

    @Test func aCompactionThatFailsLeavesTheOldJournalAndTheNextOneCutsWhatItAppended() throws {
        let dir = try TemporaryDirectory()
        let journal = try Self.open(dir, slack: 8)
        var made = try Self.purchase(journal, count: 12)
        let history = dir.stateDirectory.appendingPathComponent("history.dat")
        let named = try Data(contentsOf: history).count
        // The next compaction's index rename fails: the history got frames no journal names,
        // and the writes that started it still succeed (they are durable in the old journal).
        let disk = FaultInjectingFileSystem()
        let failing = try Self.open(dir, slack: 8, fileSystem: disk)
        disk.fail(.rename, with: .ioError)
        made += try Self.purchase(failing, count: 6)
        #expect(try Data(contentsOf: history).count > named, "frames appended past the history's end")
        let after = try Self.open(dir, slack: 8)
        #expect(after.state.orderedEntries == made)
        made += try Self.purchase(after, count: 30)
        #expect(try Self.open(dir, slack: 8).state.orderedEntries == made)
        // What the failed compaction appended was cut off before the next one appended.
        let reopened = try Self.open(dir, slack: 8).state
        #expect(reopened.history.map { Int($0.historyEnd) } == (try Data(contentsOf: history).count))
    }

    @Test func aReaderFollowsCompactionsEntryByEntryOrAllAtOnce() throws {
        let dir = try TemporaryDirectory()
        let reader = try Self.open(dir)
        let writer = try Self.open(dir, slack: 4)
        var seen = Set<String>()
        var made: [QueueEntry] = []
        for round in 0..<30 {
            made += try Self.purchase(writer, count: round % 5 == 0 ? 12 : 1)
            if round % 3 != 2 { for entry in try reader.refresh() { seen.insert(entry.id) } }
        }
        _ = try reader.refresh()
        #expect(reader.state.orderedEntries == made)
        #expect(reader.state.nextTransactionID == writer.state.nextTransactionID)
        #expect(seen.count > made.count / 2)
    }
}
