import Foundation
import StoreCore
internal import SystemIO

/// Compaction: the finished entries of the journal move to `history.dat` and the settled
/// notifications (delivered or given up) to `outbox.dat` (each appended, then synced), a new
/// run of each index covers what moved (merged with the newest runs when they are small beside
/// it: `LayeredIndex`), and the journal is rewritten with what is left — its header (naming
/// both archives' ends and their index runs), the settings, which purchases own which
/// non-consumables, the subscriptions, every unfinished entry, the server's records, the
/// pending notifications and Family Sharing's records — through a temporary file that is synced and renamed over it, the
/// directory synced. A crash at any step leaves the old journal, which still names the old
/// archives' ends and runs; bytes a crashed compaction appended to either archive past what
/// any journal names are cut off by the next one, and a run is only derived data.
extension StoreJournal {
    /// Compacts the journal.
    /// - Parameter importing: finished entries that go straight to the history with the
    ///   journal's own (`importIntoHistory`): they were never journaled.
    func compact(importing: [QueueEntry] = []) throws(LocalAppStoreError) {
        let next = generation + 1
        var state = self.state
        for entry in importing { state.noteArchived(entry) }
        let moving = state.recentEntries.filter { $0.finished && UInt64($0.id) != nil } + importing
        let staying = state.recentEntries.filter { !($0.finished && UInt64($0.id) != nil) }
        let settled = state.notifications.settled

        // The archives first, each durable before a journal that no longer holds what moved.
        let history = try JournalHistory.append(
            moving, after: state.history, dataPath: historyPath, generation: next, indexPath: indexPath,
            sync: syncsWrites, encoder: encoder, fs: fs, metrics: metrics)
        var outbox = state.notifications.archive
        if !settled.isEmpty {
            outbox = try NotificationArchive.append(
                settled, after: outbox, dataPath: outboxPath, generation: next, indexPath: outboxIndexPath,
                sync: syncsWrites, encoder: encoder, fs: fs, metrics: metrics)
        }

        // The journal's new snapshot.
        var snapshot = [JournalRecord.make(state.settings)]
        snapshot.append(
            JournalRecord.makeOwned(
                Dictionary(
                    uniqueKeysWithValues: state.ownedNonConsumables.map { ($0.key.text, $0.value) })))
        snapshot += state.orderedSubscriptions.map(JournalRecord.make)
        snapshot += staying.map(JournalRecord.make)
        snapshot += state.server.snapshot.map(JournalRecord.make)
        snapshot += state.storeKit.snapshot.map(JournalRecord.make)
        snapshot += state.notifications.snapshot.map(JournalRecord.make)
        snapshot += state.family.snapshot.map(JournalRecord.make)
        let header = JournalRecord.makeHeader(
            nextTransactionID: state.nextTransactionID, generation: next, historyEnd: history.historyEnd,
            historyRuns: history.runs, snapshotLines: snapshot.count + 1,
            outbox: outbox.map { ($0.runs, $0.historyEnd) },
            nextNotificationPosition: state.notifications.nextPosition)
        let records = [header] + snapshot
        let size = try writeSnapshot(records)
        metrics.countCompaction()

        // Continue on the new file after its last line: it holds exactly the state in memory,
        // and nobody else appended to it (the lock is held), so there is nothing to re-read.
        var fresh = JournalState(settings: state.settings, history: history, outbox: outbox)
        for record in records { _ = fresh.apply(record) }
        let previous = [state.history?.runs, state.notifications.archive?.runs]
        self.state = fresh
        if let old = file { fs.close(old) }
        file = nil
        let opened = try openJournal()
        file = opened.file
        inode = opened.inode
        offset = Int64(size)
        settledOffset = offset
        lineCount = records.count
        snapshotLines = records.count
        generation = next
        removeOldRuns(
            keepingHistory: Set((history.runs + (previous[0] ?? [])).map(\.generation)),
            outbox: Set(((outbox?.runs ?? []) + (previous[1] ?? [])).map(\.generation)))
    }

    /// Runs `body` on the up-to-date state under the write lock, then moves the entries it
    /// returns (finished, each with an ID from the counter) straight to `history.dat` in one
    /// compaction, with what the journal holds: no journal line each, so importing a long
    /// history costs writing its frames once. Nothing is announced (they are history, not news).
    /// - Returns: `body`'s result.
    /// - Throws: `.io` when the history or the journal cannot be written (nothing is imported).
    func importIntoHistory<T>(
        _ body: (inout JournalState) throws(LocalAppStoreError) -> (entries: [QueueEntry], result: T)
    ) throws(LocalAppStoreError) -> T {
        try withLock { () throws(LocalAppStoreError) in
            _ = try readNewRecords(cutTornTail: true)
            let (entries, result) = try { () throws(LocalAppStoreError) in
                var draft = state
                return try body(&draft)
            }()
            _ = try checked(())
            guard !entries.isEmpty else { return result }
            if let entry = entries.first(where: { !$0.finished || UInt64($0.id) == nil }) {
                throw .io(
                    path: historyPath,
                    reason: "transaction \(entry.id) cannot go to the history (unfinished, or not a number)")
            }
            published.withdraw()
            try compact(importing: entries)
            revision += 1
            return result
        }
    }

    /// Removes the index runs no reader that follows the journal needs: those neither this
    /// journal nor the previous one names.
    private func removeOldRuns(keepingHistory history: Set<UInt64>, outbox: Set<UInt64>) {
        for name in (try? fs.contentsOfDirectory(directory)) ?? [] where name.hasSuffix(".idx") {
            for (prefix, keep) in [("history-", history), ("outbox-", outbox)] where name.hasPrefix(prefix) {
                guard let number = UInt64(name.dropFirst(prefix.count).dropLast(".idx".count)) else { continue }
                if !keep.contains(number) { try? fs.removeFile(directory + "/" + name) }
            }
        }
    }

    /// Opens the history whose index is `runs`: `history.dat` and each run, a run made again
    /// from `history.dat` when missing or damaged.
    func openHistory(runs: [ArchiveRun], historyEnd: UInt64) throws(LocalAppStoreError) -> JournalHistory {
        try JournalHistory.open(
            runs: runs, end: historyEnd, dataPath: historyPath, indexPath: indexPath, readOnly: readOnly, fs: fs)
    }

    /// Opens the outbox archive whose index is `runs`, `end` bytes long.
    func openOutbox(runs: [ArchiveRun], end: UInt64) throws(LocalAppStoreError) -> NotificationArchive {
        try NotificationArchive.open(
            runs: runs, end: end, dataPath: outboxPath, indexPath: outboxIndexPath, readOnly: readOnly, fs: fs)
    }
}
