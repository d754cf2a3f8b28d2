import Foundation
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// Journal version 3 under failure and sharing: a compaction interrupted at any step loses
/// nothing that was acknowledged, a reader hears every change once whether or not it missed
/// compactions, a version 2 journal (server records) is migrated, and a history that is cut
/// short or gone is a clear error.
@Suite(.timeLimit(.minutes(10))) struct JournalCompactionTests {
    typealias H = JournalHistoryTests

    /// One more version of `entry` (a refund), so every change is a new value.
    static func refunded(_ entry: QueueEntry, at seconds: Double) -> QueueEntry {
        var changed = entry
        changed.transaction.revocationDate = Date(timeIntervalSince1970: 1_800_000_000 + seconds)
        return changed
    }

    @Test(arguments: [
        FaultInjectingFileSystem.Operation.write, .synchronize, .rename, .synchronizeDirectory, .truncate, .open, .read,
    ])
    func aCompactionInterruptedAtAnyStepLosesNothingAcknowledged(_ operation: FaultInjectingFileSystem.Operation) throws
    {
        for call in 1...5 {
            let dir = try TemporaryDirectory()
            var acknowledged = try H.purchase(try H.open(dir, slack: 8), count: 14)
            let disk = FaultInjectingFileSystem()
            let failing = try H.open(dir, slack: 8, fileSystem: disk)
            disk.fail(operation, onCall: call)
            // Enough writes for a compaction to start; each one that returns is acknowledged.
            for _ in 0..<12 {
                do {
                    acknowledged += try H.purchase(failing, count: 1)
                } catch {
                    break
                }
            }
            disk.heal()
            let reopened = try H.open(dir, slack: 8)
            let found = reopened.state.orderedEntries
            for entry in acknowledged {
                #expect(reopened.state.entries[entry.id] == entry, "\(operation) call \(call): \(entry.id)")
            }
            #expect(Set(found.map(\.id)).count == found.count, "no ID twice")
            #expect(found.count <= acknowledged.count + 1, "at most the failed write besides")
            // The store goes on: more writes, more compactions, the same entries after a reopen.
            let more = try H.purchase(reopened, count: 30)
            let after = try H.open(dir, slack: 8).state
            #expect(after.orderedEntries == found + more, "\(operation) call \(call)")
            #expect(after.history?.failure == nil)
        }
    }

    @Test func aCompactionThatFailsDoesNotFailTheWriteAndTheNextOneCompacts() throws {
        let dir = try TemporaryDirectory()
        let metrics = StoreMetrics()
        let disk = FaultInjectingFileSystem()
        let journal = try StoreJournal(
            directory: dir.stateDirectory.path, initialSettings: LocalStoreSettings(), metrics: metrics,
            compactionSlack: 8,
            fileSystem: disk)
        var made = try H.purchase(journal, count: 8)
        disk.fail(.rename, onCall: 1)
        made += try H.purchase(journal, count: 1)
        #expect(metrics.failedCompactions == 1)
        #expect(metrics.compactions == 0)
        made += try H.purchase(journal, count: 1)
        #expect(metrics.compactions == 1)
        #expect(try H.open(dir, slack: 8).state.orderedEntries == made)
    }

    @Test func aReaderHearsEveryChangeOnceWhetherOrNotItMissedCompactions() throws {
        let dir = try TemporaryDirectory()
        let reader = try H.open(dir)
        let writer = try H.open(dir, slack: 4)
        var pending: [String: QueueEntry] = [:]
        var made: [QueueEntry] = []
        // Refreshes after every write, then after two, then after many: the reader follows one
        // compaction at a time, or misses several.
        let gaps = [1, 1, 1, 2, 1, 3, 1, 1, 7, 1, 12, 1, 25, 1, 1, 40, 2]
        var step = 0
        for gap in gaps {
            for _ in 0..<gap {
                step += 1
                if step % 4 == 0, let old = made.dropLast().last {
                    // A change to an entry that has likely been compacted already.
                    let changed = Self.refunded(old, at: Double(step))
                    _ = try writer.transact { _ throws(LocalAppStoreError) in ([JournalRecord.make(changed)], ()) }
                    made[made.firstIndex { $0.id == old.id }!] = changed
                    pending[changed.id] = changed
                } else {
                    let new = try H.purchase(writer, count: 1, finished: { _ in step % 5 != 0 })
                    made += new
                    for entry in new { pending[entry.id] = entry }
                }
            }
            let heard = try reader.refresh()
            #expect(Set(heard.map(\.id)).count == heard.count, "each change once (step \(step))")
            #expect(Dictionary(uniqueKeysWithValues: heard.map { ($0.id, $0) }) == pending, "step \(step)")
            pending = [:]
            #expect(try reader.refresh().isEmpty, "nothing twice")
        }
        #expect(reader.state.orderedEntries == made)
        #expect(reader.state.nextTransactionID == writer.state.nextTransactionID)
        #expect((writer.state.history?.count ?? 0) > made.count / 2, "the writer compacted")
    }

    @Test func aJournalOfVersionTwoKeepsItsServerRecordsWhenMigrated() throws {
        let dir = try TemporaryDirectory()
        var journal = try LegacyJournal(version: 2, settings: LocalStoreSettings())
        var expected: [QueueEntry] = []
        for n in 0..<400 {
            let entry = H.entry("\(2_000_000_000_000_001 + n)", finished: n != 17)
            try journal.append(JournalRecord.make(entry))
            expected.append(entry)
        }
        let token = UUID()
        try journal.append(
            JournalRecord.make(
                ServerRecord(
                    appAccountToken: AppAccountTokenRecord(originalTransactionID: expected[3].id, token: token))))
        try journal.write(to: dir)
        for _ in 0..<2 {
            let state = try H.open(dir).state
            #expect(state.orderedEntries == expected)
            #expect(state.server.appAccountToken(originalTransactionID: expected[3].id) == token)
            #expect(state.unfinishedEntries.map(\.id) == [expected[17].id])
            #expect(state.history != nil)
        }
        let header = try String(contentsOf: dir.journal, encoding: .utf8).split(separator: "\n")[0]
        #expect(header.contains(#""version":\#(JournalRecord.currentVersion)"#))
    }

    @Test func aJournalOfANewerVersionIsRefusedByName() throws {
        let dir = try TemporaryDirectory()
        let newer = JournalRecord.currentVersion + 1
        try LegacyJournal(version: newer).write(to: dir)
        #expect {
            _ = try H.open(dir)
        } throws: { error in
            guard case .corrupt(let path, let line, let reason)? = error as? LocalAppStoreError else { return false }
            return path == dir.journal.path && line == 1 && reason.contains("version \(newer)")
        }
    }

    @Test func aHistoryCutShortOrGoneIsAClearErrorNamingIt() throws {
        let dir = try TemporaryDirectory()
        let made = try H.purchase(try H.open(dir, slack: 8), count: 40)
        let history = dir.stateDirectory.appendingPathComponent("history.dat")
        let whole = try Data(contentsOf: history)
        try whole.prefix(whole.count - 30).write(to: history)
        let cut = try H.open(dir, slack: 8)
        #expect(cut.state.orderedEntries.count < made.count)
        guard case .corrupt(let path, _, _)? = cut.state.history?.failure else {
            Issue.record("no failure recorded")
            return
        }
        #expect(path == history.path)
        #expect(throws: LocalAppStoreError.self) {
            _ = try cut.transact { state throws(LocalAppStoreError) in ([], state.orderedEntries.count) }
        }
        try FileManager.default.removeItem(at: history)
        #expect {
            _ = try H.open(dir, slack: 8)
        } throws: { error in
            guard case .corrupt(let path, _, let reason)? = error as? LocalAppStoreError else { return false }
            return path == history.path && reason.contains("names an archive that cannot be opened")
        }
        // Put back whole, the history reads as before: nothing was decided on the damage.
        try whole.write(to: history)
        #expect(try H.open(dir, slack: 8).state.orderedEntries == made)
    }

    @Test func positionsNameTheSameTransactionsAcrossCompactions() throws {
        let dir = try TemporaryDirectory()
        let journal = try H.open(dir, slack: 8)
        _ = try H.purchase(journal, count: 30, finished: { $0 % 7 != 3 })
        let before = journal.state.order
        let ids = (0..<before.count).map { before[$0] }
        #expect(ids == journal.state.orderedEntries.map(\.id))
        _ = try H.purchase(journal, count: 40)
        let after = journal.state.order
        #expect((0..<ids.count).map { after[$0] } == ids)
        #expect(after.count == 70)
        #expect((0..<after.count).map { after[$0] } == journal.state.orderedEntries.map(\.id))
    }

    /// Version 4 has two new record kinds, `storekit` (refund requests, offer codes, nonces) and
    /// `notification` (the outbox, price increases): interleaved in one journal, each keeps its
    /// last version through several compactions, and the header says version 4.
    @Test func aVersionFourJournalKeepsItsStoreKitAndNotificationRecordsThroughCompactions() throws {
        let dir = try TemporaryDirectory()
        let journal = try H.open(dir, slack: 8)
        let epoch = Date(timeIntervalSince1970: 1_800_000_000)
        var request = RefundRequest(
            id: "r1", transactionID: "7", originalTransactionID: "7", productID: "p", accountID: "a",
            requestedAt: epoch,
            consumptionRequestReason: "LEGAL")
        var sent = StoredNotification(
            type: .consumptionRequest, subtype: nil, now: epoch, accountID: "a", transaction: nil)
        sent.consumptionRequestReason = "LEGAL"
        var increase = PriceIncrease(
            originalTransactionID: "9", accountID: "a", productID: "s", date: epoch, status: .pending)
        _ = try journal.transact { _ throws(LocalAppStoreError) in
            (
                [
                    JournalRecord.make(StoreKitRecord(refundRequest: request)),
                    JournalRecord.make(NotificationRecord(notification: sent)),
                    JournalRecord.make(NotificationRecord(priceIncrease: increase)),
                ], ()
            )
        }
        _ = try H.purchase(journal, count: 20, finished: { _ in true })
        request.status = .declined
        request.decidedAt = epoch.addingTimeInterval(60)
        sent.sendAttempts = [SendAttemptItem(attemptDate: epoch.addingTimeInterval(1), sendAttemptResult: .success)]
        sent.nextAttemptDate = nil
        increase.status = .accepted
        _ = try journal.transact { _ throws(LocalAppStoreError) in
            (
                [
                    JournalRecord.make(NotificationRecord(priceIncrease: increase)),
                    JournalRecord.make(StoreKitRecord(refundRequest: request)),
                    JournalRecord.make(NotificationRecord(notification: sent)),
                ], ()
            )
        }
        _ = try H.purchase(journal, count: 40, finished: { _ in true })
        let state = try H.open(dir, slack: 8).state
        #expect(state.storeKit.orderedRefundRequests == [request])
        #expect(state.notifications.ordered == [sent])
        #expect(state.notifications.due.isEmpty)
        #expect(state.notifications.priceIncreases == ["9": increase])
        let lines = try String(contentsOf: dir.journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.count < 30, "it was compacted")
        #expect(lines[0].contains(#""version":\#(JournalRecord.currentVersion)"#))
        #expect(
            lines.contains { $0.contains(#""kind":"storekit""#) }
                && lines.contains { $0.contains(#""kind":"notification""#) })
    }
}
