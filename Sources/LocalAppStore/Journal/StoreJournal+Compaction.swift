import Foundation
import StoreCore
internal import SystemIO

/// Compaction: the finished entries of the journal move to `history.dat` and the settled
/// notifications (delivered or given up) to `outbox.dat` (each appended, then synced), a new
/// index covers each whole archive (`history-GENERATION.idx`; `outbox-GENERATION.idx` when
/// notifications moved, else the last one stays), and the journal is rewritten with what is
/// left — its header (naming both archives' ends), the settings, which purchases own which
/// non-consumables, the subscriptions, every unfinished entry, the server's records and the
/// pending notifications — through a temporary file that is synced and renamed over it, the
/// directory synced. A crash at any step leaves the old journal, which still names the old
/// archives' ends and indexes; bytes a crashed compaction appended to either archive past what
/// any journal names are cut off by the next one, and an index is only derived data.
extension StoreJournal {
    func compact() throws(LocalAppStoreError) {
        let next = generation + 1
        let moving = state.recentEntries.filter { $0.finished && UInt64($0.id) != nil }
        let staying = state.recentEntries.filter { !($0.finished && UInt64($0.id) != nil) }
        let settled = state.notifications.settled

        // The archives first, each durable before a journal that no longer holds what moved.
        let (historyEnd, historyTables) = try JournalHistory.append(
            moving, after: state.history, dataPath: historyPath, generation: next, indexPath: indexPath(next),
            sync: syncsWrites,
            encoder: encoder, fs: fs, metrics: metrics)
        let history = try openHistory(generation: next, historyEnd: historyEnd, primed: historyTables)
        var outbox = state.notifications.archive
        if !settled.isEmpty {
            let (end, tables) = try NotificationArchive.append(
                settled, after: outbox, dataPath: outboxPath, generation: next, indexPath: outboxIndexPath(next),
                sync: syncsWrites,
                encoder: encoder, fs: fs, metrics: metrics)
            outbox = try openOutbox(generation: next, end: end, primed: tables)
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
        let header = JournalRecord.makeHeader(
            nextTransactionID: state.nextTransactionID, generation: next, historyEnd: historyEnd,
            snapshotLines: snapshot.count + 1,
            outbox: outbox.map { ($0.generation, $0.historyEnd) },
            nextNotificationPosition: state.notifications.nextPosition)
        let records = [header] + snapshot
        let size = try writeSnapshot(records)
        metrics.countCompaction()

        // Continue on the new file after its last line: it holds exactly the state in memory,
        // and nobody else appended to it (the lock is held), so there is nothing to re-read.
        var fresh = JournalState(settings: state.settings, history: history, outbox: outbox)
        for record in records { _ = fresh.apply(record) }
        let previousOutbox = state.notifications.archive?.generation
        state = fresh
        if let old = file { fs.close(old) }
        file = nil
        let opened = try openJournal()
        file = opened.file
        inode = opened.inode
        offset = Int64(size)
        lineCount = records.count
        snapshotLines = records.count
        generation = next
        removeOldIndexes(
            keepingHistoryFrom: next - 1, outboxFrom: min(previousOutbox ?? next, outbox?.generation ?? next))
    }

    /// Removes the indexes no reader that follows the journal needs: those older than the ones
    /// the previous journal and this one name.
    private func removeOldIndexes(keepingHistoryFrom history: UInt64, outboxFrom outbox: UInt64) {
        for name in (try? fs.contentsOfDirectory(directory)) ?? [] where name.hasSuffix(".idx") {
            for (prefix, keep) in [("history-", history), ("outbox-", outbox)] where name.hasPrefix(prefix) {
                let number = UInt64(name.dropFirst(prefix.count).dropLast(".idx".count)) ?? keep
                if number < keep { try? fs.removeFile(directory + "/" + name) }
            }
        }
    }

    /// Opens generation `generation`'s history: `history.dat` and its index, made again from
    /// `history.dat` when missing or damaged.
    func openHistory(
        generation: UInt64, historyEnd: UInt64, primed: [[HistoryIndex.Entry]]? = nil
    ) throws(LocalAppStoreError) -> JournalHistory {
        try JournalHistory.open(
            generation: generation, historyEnd: historyEnd, dataPath: historyPath, indexPath: indexPath(generation),
            readOnly: readOnly, fs: fs,
            primed: primed)
    }

    /// Opens the outbox archive whose index generation `generation` wrote, `end` bytes long.
    func openOutbox(
        generation: UInt64, end: UInt64, primed: [[HistoryIndex.Entry]]? = nil
    ) throws(LocalAppStoreError) -> NotificationArchive {
        try NotificationArchive.open(
            generation: generation, historyEnd: end, dataPath: outboxPath, indexPath: outboxIndexPath(generation),
            readOnly: readOnly, fs: fs,
            primed: primed)
    }
}
