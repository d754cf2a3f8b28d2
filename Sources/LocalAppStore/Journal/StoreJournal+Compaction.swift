import Foundation
import StoreCore
import SystemIO

/// Compaction: the finished entries of the journal move to `history.dat` (appended, synced),
/// a new index covers the whole history (`history-GENERATION.idx`), and the journal is
/// rewritten with what is left — its header, the settings, which purchases own which
/// non-consumables, the subscriptions, every unfinished entry, the server's records and the
/// notification outbox — through a temporary file
/// that is synced and renamed over it, the directory synced. A crash at any step leaves the
/// old journal, which still names the old history and index; bytes a crashed compaction
/// appended to `history.dat` past what any journal names are cut off by the next one.
extension StoreJournal {
    func compact() throws(LocalAppStoreError) {
        let old = state.history
        let moving = state.recentEntries.filter { $0.finished && UInt64($0.id) != nil }
        let staying = state.recentEntries.filter { !($0.finished && UInt64($0.id) != nil) }
        let next = generation + 1

        // The finished entries, appended to the history and made durable first.
        var end = old?.historyEnd ?? UInt64(JournalHistory.headerLength)
        var frames: [(entry: QueueEntry, offset: UInt64, length: Int)] = []
        if !moving.isEmpty || old == nil {
            var bytes: [UInt8] = []
            for entry in moving {
                let frame = try encodeFrame(entry)
                frames.append((entry, end + UInt64(bytes.count), frame.count - 12))
                bytes += frame
            }
            try io { () throws(SystemCallError) in
                let data = try fs.open(historyPath, [.readWrite, .create, .noFollow], mode: 0o600)
                defer { fs.close(data) }
                let size = try fs.status(of: data).size
                if old == nil, size < UInt64(JournalHistory.headerLength) {
                    try fs.write(data, JournalHistory.magic[...], at: 0)
                }
                // Whatever a crashed compaction appended past the history's end is not history.
                if size > end { try fs.truncate(data, to: end) }
                try fs.write(data, bytes[...], at: end)
                if syncsWrites {
                    try fs.synchronize(data, .data)
                    metrics.countFsync()
                }
            }
            end += UInt64(bytes.count)
        }

        // The index of the whole history: the old one's entries, with the moved ones' new frames.
        var tables = try oldTables(old)
        for frame in frames {
            let transaction = frame.entry.transaction
            guard let id = UInt64(frame.entry.id) else { continue }
            tables.0[id] = HistoryIndex.Entry(key: id, value: frame.offset, info: JournalHistory.Flags(frame.entry).info(length: frame.length))
            if transaction.state != .restored {
                tables.1[HistoryIndex.hash(transaction.payment.requestID), default: [:]][id] = ()
            }
            let grant = JournalState.grantKey(accountID: frame.entry.accountID, transaction: transaction)
            tables.2[grant, default: [:]][id] = ()
            // The finished digests: the version this frame replaces leaves, this one comes in.
            if let previous = old?.entry(id: frame.entry.id), JournalHistory.countsAsFinished(previous) {
                tables.3[HistoryIndex.hash(previous.accountID), default: TransactionDigest()].remove(previous.id)
            }
            if JournalHistory.countsAsFinished(frame.entry) {
                tables.3[HistoryIndex.hash(frame.entry.accountID), default: TransactionDigest()].insert(frame.entry.id)
            }
        }
        if let failure = old?.failure { throw failure }
        let sorted: [[HistoryIndex.Entry]] = [
            tables.0.values.sorted { $0.key < $1.key },
            HistoryIndex.pairs(tables.1), HistoryIndex.pairs(tables.2), JournalHistory.finishedTable(tables.3),
        ]
        let suffix = "\(ProcessInfo.processInfo.processIdentifier)"
        try io { () throws(SystemCallError) in
            try HistoryIndex.write(sorted, generation: next, historyEnd: end, to: indexPath(next), fs: fs, temporarySuffix: suffix)
        }
        let history = try openHistory(generation: next, historyEnd: end)

        // The journal's new snapshot.
        var snapshot = [JournalRecord.make(state.settings)]
        snapshot.append(JournalRecord.makeOwned(Dictionary(
            uniqueKeysWithValues: state.ownedNonConsumables.map { ($0.key.text, $0.value) })))
        snapshot += state.orderedSubscriptions.map(JournalRecord.make)
        snapshot += staying.map(JournalRecord.make)
        snapshot += state.server.snapshot.map(JournalRecord.make)
        snapshot += state.storeKit.snapshot.map(JournalRecord.make)
        snapshot += state.notifications.snapshot.map(JournalRecord.make)
        let header = JournalRecord.makeHeader(
            nextTransactionID: state.nextTransactionID, generation: next, historyEnd: end, snapshotLines: snapshot.count + 1)
        let records = [header] + snapshot
        let size = try writeSnapshot(records)
        metrics.countCompaction()

        // Continue on the new file after its last line: it holds exactly the state in memory,
        // and nobody else appended to it (the lock is held), so there is nothing to re-read.
        var fresh = JournalState(settings: state.settings, history: history)
        for record in records { _ = fresh.apply(record) }
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
        // Indexes older than the previous one: no reader that follows the journal needs them.
        if next >= 2 {
            for name in (try? fs.contentsOfDirectory(directory)) ?? [] where name.hasPrefix("history-") && name.hasSuffix(".idx") {
                let number = UInt64(name.dropFirst("history-".count).dropLast(".idx".count)) ?? next
                if number < next - 1 { try? fs.removeFile(directory + "/" + name) }
            }
        }
    }

    private func encodeFrame(_ entry: QueueEntry) throws(LocalAppStoreError) -> [UInt8] {
        do {
            return try JournalHistory.encodeFrame(entry, encoder: encoder)
        } catch {
            throw .io(path: historyPath, reason: "cannot encode an entry: \(error)")
        }
    }

    /// The old index's tables: entries by ID, the request and grant pairs, and the finished
    /// digests by account hash.
    private func oldTables(_ old: JournalHistory?) throws(LocalAppStoreError) -> (
        [UInt64: HistoryIndex.Entry], [UInt64: [UInt64: Void]], [UInt64: [UInt64: Void]], [UInt64: TransactionDigest]
    ) {
        var entries: [UInt64: HistoryIndex.Entry] = [:]
        var requests: [UInt64: [UInt64: Void]] = [:]
        var grants: [UInt64: [UInt64: Void]] = [:]
        var finished: [UInt64: TransactionDigest] = [:]
        guard let old else { return (entries, requests, grants, finished) }
        // Through the history, so that a damaged page makes the index again from `history.dat`.
        guard let tables = old.indexTables() else {
            throw old.failure ?? .corrupt(path: old.index.path, line: 0, reason: "the history's index cannot be read")
        }
        for entry in tables.entries { entries[entry.key] = entry }
        for entry in tables.requests { requests[entry.key, default: [:]][entry.value] = () }
        for entry in tables.grants { grants[entry.key, default: [:]][entry.value] = () }
        for entry in tables.finished { finished[entry.key] = TransactionDigest(count: Int(entry.value), sum: entry.info) }
        return (entries, requests, grants, finished)
    }

    /// Opens generation `generation`'s history: `history.dat` and its index, making the index
    /// again from `history.dat` when it is missing or damaged (a crash after the journal named
    /// it, or damage).
    func openHistory(generation: UInt64, historyEnd: UInt64) throws(LocalAppStoreError) -> JournalHistory {
        let data: OpenFile
        do {
            data = try fs.open(historyPath, [.read, .noFollow], mode: 0)
        } catch {
            throw .corrupt(path: historyPath, line: 0, reason: "journal generation \(generation) names a history that cannot be opened (\(error.errno))")
        }
        let path = indexPath(generation)
        if let index = try? HistoryIndex.open(path, generation: generation, fs: fs), index.historyEnd == historyEnd {
            return JournalHistory(generation: generation, dataPath: historyPath, data: data, index: index, fs: fs)
        }
        if readOnly {
            // Remade only where it may be written: a reader never writes.
            fs.close(data)
            throw .corrupt(
                path: path, line: 0,
                reason: "the history's index is missing or damaged and the store was opened read-only: run any command once with the directory writable to make it again")
        }
        do {
            try JournalHistory.rebuildIndex(
                generation: generation, historyEnd: historyEnd, data: data, dataPath: historyPath, indexPath: path, fs: fs)
            let index = try HistoryIndex.open(path, generation: generation, fs: fs)
            return JournalHistory(generation: generation, dataPath: historyPath, data: data, index: index, fs: fs)
        } catch let error as LocalAppStoreError {
            fs.close(data)
            throw error
        } catch {
            fs.close(data)
            throw .corrupt(path: path, line: 0, reason: "the history's index cannot be made again: \(error)")
        }
    }
}
