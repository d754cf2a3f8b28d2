import Foundation
import StoreCore
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// The store's digest of what the app finished (`finishedTransactionsDigest()`, issue 13): the
/// history index's `finished` table plus the journal's recent entries always equal the digest
/// of the whole list, across compactions, changed entries, other accounts, a reopened store,
/// and an index of version 1 or a lost one made again from `history.dat`.
@Suite(.timeLimit(.minutes(10))) struct FinishedDigestTests {
    static func expected(_ state: JournalState, account: String) -> TransactionDigest {
        TransactionDigest(
            ids: state.orderedEntries.filter { $0.accountID == account && JournalHistory.countsAsFinished($0) }.map(
                \.id))
    }

    static func journalEntries(_ journal: StoreJournal, count: Int, at n: Int) throws -> [QueueEntry] {
        var made: [QueueEntry] = []
        for k in n..<(n + count) {
            let (entry, _) = try journal.transact { state throws(LocalAppStoreError) in
                var entry = JournalHistoryTests.entry(
                    state.allocateTransactionID(), account: k % 7 == 0 ? "b" : "a", finished: k % 10 != 3)
                if k % 11 == 5 { entry.transaction.state = .failed }
                return ([JournalRecord.make(entry)], entry)
            }
            made.append(entry)
        }
        return made
    }

    /// Writes new versions of entries of `made`: the fifth and the ninth (compacted by then)
    /// restored and failed, the fourth (unfinished, so still in the journal) finished.
    static func changeCompactedEntries(_ journal: StoreJournal, _ made: [QueueEntry]) throws {
        var changed = made[4]
        changed.finished = true
        changed.transaction.state = .restored
        var failed = made[8]
        failed.transaction.state = .failed
        var done = made[3]
        done.finished = true
        _ = try journal.transact { _ throws(LocalAppStoreError) in
            ([changed, failed, done].map(JournalRecord.make), ())
        }
    }

    func check(_ dir: TemporaryDirectory, _ note: Comment) throws {
        let state = try JournalHistoryTests.open(dir, slack: 8).state
        for account in ["a", "b", "nobody"] {
            #expect(
                state.finishedDigest(accountID: account) == Self.expected(state, account: account),
                "\(account): \(note)")
        }
        #expect(state.history?.failure == nil)
    }

    @Test func theDigestIsTheWholeListsAcrossCompactionsChangesAndRebuiltIndexes() throws {
        let dir = try TemporaryDirectory()
        let journal = try JournalHistoryTests.open(dir, slack: 8)
        var made = try Self.journalEntries(journal, count: 70, at: 0)
        #expect(journal.state.history != nil, "compacted")
        #expect(journal.state.finishedDigest(accountID: "a") == Self.expected(journal.state, account: "a"))
        #expect(Self.expected(journal.state, account: "a").count > 40)
        try check(dir, "after compactions")

        // A compacted entry changed twice (unfinished, then finished as restored), another
        // one failed later, one unfinished finished: before and after the next compactions.
        var changed = made[4]
        changed.finished = false
        _ = try journal.transact { _ throws(LocalAppStoreError) in ([JournalRecord.make(changed)], ()) }
        try check(dir, "a compacted entry made unfinished")
        try Self.changeCompactedEntries(journal, made)
        try check(dir, "changed in the journal")
        made += try Self.journalEntries(journal, count: 30, at: 70)
        try check(dir, "changed, then compacted")

        // The index made again: lost, and of version 1 (its version bytes say 1).
        let indexes = try FileManager.default.contentsOfDirectory(atPath: dir.stateDirectory.path).filter {
            $0.hasSuffix(".idx")
        }
        let current = dir.stateDirectory.appendingPathComponent(
            try #require(indexes.max { $0.count < $1.count || ($0.count == $1.count && $0 < $1) }))
        var old = try Data(contentsOf: current)
        old[8] = 1
        try old.write(to: current)
        try check(dir, "an index of version 1")
        #expect(try Data(contentsOf: current)[8] == UInt8(HistoryIndex.version), "made again at the current version")
        try FileManager.default.removeItem(at: current)
        try check(dir, "a lost index")
    }

    @Test func theStoreAnswersWithTheDigestOfItsFinishedList() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        var reader = EventReader(await store.events())
        for product in [TestCatalog.pro, TestCatalog.coins, TestCatalog.coins] {
            let bought = try await buy(store, &reader, product)
            try await store.finish(transactionID: bought.transactionID)
        }
        _ = try await buy(store, &reader, TestCatalog.coins)
        let list = try #require(try await store.finishedTransactions())
        #expect(list.count == 3, "the unfinished one is left out")
        #expect(try await store.finishedTransactionsDigest() == TransactionDigest(ids: list.map(\.transactionID)))
    }
}
