import Foundation
import StoreCore
internal import SystemIO

/// The store's state on disk, shared by every process that opens the same directory: an
/// append-only journal of JSON lines (`journal.jsonl`) holding what changed since the last
/// compaction, every unfinished transaction and every pending notification; the finished
/// transactions compacted out of it (`history.dat`, found through the runs of its index,
/// `history-GENERATION.idx`: `JournalHistory`) and the settled notifications (`outbox.dat`,
/// `outbox-GENERATION.idx`: `NotificationArchive`). Reading is `StoreJournal+Reading.swift`, writing
/// `StoreJournal+Writing.swift`, compaction `StoreJournal+Compaction.swift`.
///
/// - Writes take an exclusive `flock` on `store.lock` only while they write: read the other
///   processes' new records, append this one's, release, then sync (group commit: one sync
///   covers every append before it, so writers do not queue behind each other's syncs).
/// - Nothing read is handed out before it is durable: lines another process appended and may
///   not have synced yet are synced by the reader first (`makeReadDurable`), so no process acts
///   on (announces, notifies, answers with) a change a power loss could still take.
/// - A line counts once it ends with a newline, and a change of several lines once its last
///   line is in (every line but the last says `"more": true`): a torn last change (a crash or
///   power cut mid-append, even between its lines) is ignored on load and cut off by the next
///   writer, never applied in part.
/// - When the journal holds `compactionSlack` lines beyond its snapshot, it is compacted
///   (`StoreJournal+Compaction.swift`): finished entries go to `history.dat` and settled
///   notifications to `outbox.dat`, a run of each index is written for what moved, and the
///   journal is rewritten with the rest — its cost follows what moved, not the archives.
///   Readers notice the new inode, finish the old file and go on with the new one.
/// - Opened `readOnly` (a directory this process may not write), it takes no lock and writes
///   nothing: it reads as `refresh()` always does, without the lock (only complete changes,
///   the old file to its end across a compaction), and `transact` refuses.
///
/// Not thread-safe: its owner (the `LocalAppStore` actor) serializes calls.
final class StoreJournal {
    let directory: String
    let journalPath: String
    let lockPath: String
    var historyPath: String { directory + "/history.dat" }
    var indexPath: (UInt64) -> String { { [directory] in directory + "/history-\($0).idx" } }
    var outboxPath: String { directory + "/outbox.dat" }
    var outboxIndexPath: (UInt64) -> String { { [directory] in directory + "/outbox-\($0).idx" } }
    let metrics: StoreMetrics
    let fs: any FileSystem

    /// The write lock's file (`nil` when opened read-only).
    let lockFile: OpenFile?
    /// Whether the journal was opened read-only: no lock, no compaction, no writes.
    let readOnly: Bool
    /// The journal as last opened (`nil` until the first read).
    var file: OpenFile?
    var inode: UInt64 = 0
    /// Bytes of the journal read and applied (always at a line boundary).
    var offset: Int64 = 0
    /// Bytes of the current file whose changes may be handed out without a sync: synced (by
    /// this process or by the one that wrote them), or this process's own unsynced appends,
    /// which a crash may lose by design. Another process's lines beyond it are synced before
    /// they are handed out.
    var settledOffset: Int64 = 0
    /// Complete lines read from the current file (for error messages and compaction).
    var lineCount = 0
    /// The lines the current file began with (its snapshot; 0 for a version 1 journal).
    var snapshotLines = 0
    /// The compaction that wrote the current file (0: none).
    var generation: UInt64 = 0
    var state: JournalState
    /// `state` as last read, for readers off the store's actor; withdrawn before `state`
    /// changes, so a change does not copy the collections the two share.
    let published: PublishedSnapshot
    /// Grows whenever records are applied (read from another process's writes, or appended
    /// here), so a reader can tell that nothing changed without comparing states.
    var revision = 0

    let encoder = StreamingJSONEncoder()

    /// Compaction starts when the journal has this many lines beyond its snapshot.
    static let defaultCompactionSlack = 256
    let compactionSlack: Int
    let syncsWrites: Bool
    /// The records a write adds besides its own, from the state before it and its records
    /// (the notifications of its events): they go out in the same durable append.
    var consequences: ((JournalState, [JournalRecord]) -> [JournalRecord])?

    /// Opens (creating when needed) the journal in `directory`.
    ///
    /// - Parameters:
    ///   - directory: the state directory, created with mode 0700 (an existing one must be
    ///     writable: its permissions are the user's and are never changed).
    ///   - initialSettings: the settings a new journal starts with.
    ///   - metrics: where `fsync`s are counted.
    ///   - compactionSlack: lines beyond the snapshot tolerated before compacting (tests lower it).
    ///   - syncsWrites: `false` skips every `fsync` (only to seed a benchmark's history).
    ///   - readOnly: read what is there without the lock and write nothing (no journal:
    ///     the state a new one would start with, kept in memory).
    ///   - fileSystem: the file system the journal is kept through.
    /// - Throws: `LocalAppStoreError.io` or `.corrupt`.
    init(
        directory: String, initialSettings: LocalStoreSettings, metrics: StoreMetrics,
        compactionSlack: Int = StoreJournal.defaultCompactionSlack, syncsWrites: Bool = true, readOnly: Bool = false,
        fileSystem: any FileSystem = POSIXFileSystem()
    ) throws(LocalAppStoreError) {
        self.fs = fileSystem
        self.compactionSlack = compactionSlack
        self.syncsWrites = syncsWrites
        self.readOnly = readOnly
        self.directory = directory
        self.journalPath = directory + "/journal.jsonl"
        self.lockPath = directory + "/store.lock"
        self.metrics = metrics
        self.state = JournalState(settings: initialSettings)
        self.published = PublishedSnapshot(journalPath: journalPath, fileSystem: fileSystem)
        if readOnly {
            lockFile = nil
            if try currentInode() == nil {
                for record in Self.emptySnapshot(initialSettings) { _ = state.apply(record) }
            } else {
                _ = try readNewRecords(cutTornTail: false)
                settleAfterOpen()
            }
            return
        }
        try StoreDirectory.prepare(directory, fileSystem: fileSystem)
        do {
            lockFile = try fileSystem.open(lockPath, [.readWrite, .create])
        } catch {
            throw Self.ioError(error)
        }
        // What is whole is read as a reader reads it, without the lock: processes opening at
        // once do not wait in turn while each decodes the journal and its archives' indexes
        // (and loads OpenSSL's provider for their digests). The lock is taken at the open only
        // to write: a journal missing or emptied, a tail to cut, one long enough to compact.
        if try currentInode() != nil {
            _ = try readNewRecords(cutTornTail: false)
            guard try writesAtOpen() else {
                settleAfterOpen()
                return
            }
        }
        try withLock { () throws(LocalAppStoreError) in
            if try currentInode() == nil {
                try writeSnapshot(Self.emptySnapshot(initialSettings))
            }
            _ = try readNewRecords(cutTornTail: true)
            if lineCount == 0 {
                // An empty journal (cut to nothing from outside) holds no state: start it anew.
                try writeSnapshot(Self.emptySnapshot(initialSettings))
                _ = try readNewRecords(cutTornTail: true)
            }
            // A long journal (one written before compaction moved history out, or one that
            // grew without a writer) is compacted now, so later opens read little.
            if needsCompaction { compactIfPossible() }
        }
        settleAfterOpen()
    }

    /// Syncs what the open read (`makeReadDurable`). A disk that cannot sync does not keep the
    /// store from opening, as it did not before the reads synced: what was read stays
    /// unsettled, so the next refresh or write syncs again and reports the failure.
    private func settleAfterOpen() {
        try? makeReadDurable()
    }

    /// Whether the open must write, read so far without the lock: the journal read is empty,
    /// ends in a partial line (torn, or being written: the lock tells), or needs compacting.
    private func writesAtOpen() throws(LocalAppStoreError) -> Bool {
        guard let file, lineCount > 0, !needsCompaction else { return true }
        let size = try io { () throws(SystemCallError) in try fs.status(of: file).size }
        return Int64(size) != offset
    }

    deinit {
        if let file { fs.close(file) }
        if let lockFile { fs.close(lockFile) }
    }

    static func emptySnapshot(_ settings: LocalStoreSettings) -> [JournalRecord] {
        [
            JournalRecord.makeHeader(nextTransactionID: JournalState.firstTransactionID, snapshotLines: 2),
            JournalRecord.make(settings),
        ]
    }

    // MARK: - Reading

    /// Reads what other processes appended since the last read.
    /// - Returns: the entries that changed, in journal order (an entry at most once).
    func refresh() throws(LocalAppStoreError) -> [QueueEntry] {
        let changed = try readNewRecords(cutTornTail: false)
        try makeReadDurable()
        return changed
    }

    /// `value`, unless reading the compacted history to make it met a failure: then that
    /// failure (the history is damaged or unreadable; nothing is answered from it), told to
    /// the `ArchiveReadWatch` running too, so that the request it refuses says why.
    func checked<T>(_ value: T) throws(LocalAppStoreError) -> T {
        if let failure = state.history?.failure ?? state.notifications.archive?.failure {
            ArchiveReadWatch.report(failure)
            throw failure
        }
        return value
    }

    // MARK: - Writing

    /// Runs `body` on the up-to-date state under the write lock, appends the records it
    /// returns, lets the lock go, then makes them durable and applies them (group commit: the
    /// sync runs outside the lock, and covers the appends other processes made before it).
    ///
    /// - Parameters:
    ///   - sync: whether to sync before returning. Only a change that a crash may lose
    ///     harmlessly skips it (a purchase just queued: nothing is charged yet; a finish: the
    ///     transaction is delivered again and the engine deduplicates it); the next synced
    ///     append makes it durable anyway, and a killed process loses nothing it wrote. Other
    ///     processes' lines read first are synced regardless when they may not be durable yet.
    ///   - body: gets the state (with every other process's changes) to draft on; returns
    ///     the records to append and a result. It must not block or wait.
    /// - Returns: `body`'s result and every entry that changed: other processes' changes
    ///   read first, then these records'.
    /// - Throws: `body`'s error, or `.io` when the append or its sync fails (its records are
    ///   then not applied: the next read finds them in the file, as another process does).
    func transact<T>(
        sync: Bool = true,
        _ body: (inout JournalState) throws(LocalAppStoreError) -> (records: [JournalRecord], result: T)
    ) throws(LocalAppStoreError) -> (result: T, changed: [QueueEntry]) {
        let (result, read, appended) = try withLock {
            () throws(LocalAppStoreError) -> (T, [QueueEntry], JournalAppend?) in
            let read = try readNewRecords(cutTornTail: true)
            var (records, result) = try { () throws(LocalAppStoreError) in
                var draft = state
                return try body(&draft)
            }()
            // A draft decided on a history that could not be read is never written.
            _ = try checked(())
            if let consequences { records += consequences(state, records) }
            guard !records.isEmpty else { return (result, read, nil) }
            let appended = try append(records)
            guard needsCompaction else { return (result, read, appended) }
            // A compaction rewrites the journal from the state, so the records are made
            // durable and applied first, under the lock, as every write was before group commit.
            let applied = try commit(appended, sync: sync)
            compactIfPossible()
            return (result, read + applied, nil)
        }
        guard let appended else {
            try makeReadDurable()
            return (result, Self.lastVersions(read))
        }
        return (result, Self.lastVersions(read + (try commit(appended, sync: sync))))
    }

    /// Compacts when the journal is already durable (after a write, or at open): a compaction
    /// that fails (a full disk, a failing rename) leaves the old journal, which holds
    /// everything, so the write or the open is not reported as failed; the next write tries
    /// again. (`metrics.failedCompactions` counts them.)
    private func compactIfPossible() {
        do {
            try compact()
        } catch {
            metrics.countFailedCompaction()
        }
    }

    /// Whether the journal holds enough lines beyond its snapshot to compact.
    var needsCompaction: Bool { lineCount - snapshotLines > compactionSlack }
}
