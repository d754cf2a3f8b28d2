import Foundation
import SystemIO

/// The store's state on disk, shared by every process that opens the same directory: an
/// append-only journal of JSON lines (`journal.jsonl`) holding what changed since the last
/// compaction and every unfinished transaction, and the finished transactions compacted out
/// of it (`history.dat`, found through `history-GENERATION.idx`: `JournalHistory`).
///
/// - Writes take an exclusive `flock` on `store.lock` only while they write: read the other
///   processes' new records, append this one's, sync, release.
/// - A line counts once it ends with a newline, and a change of several lines once its last
///   line is in (every line but the last says `"more": true`): a torn last change (a crash or
///   power cut mid-append, even between its lines) is ignored on load and cut off by the next
///   writer, never applied in part.
/// - When the journal holds `compactionSlack` lines beyond its snapshot, it is compacted
///   (`StoreJournal+Compaction.swift`): finished entries go to `history.dat`, a new index is
///   written, and the journal is rewritten with the rest — its cost does not grow with the
///   history but for the index (24 bytes an entry). Readers notice the new inode, finish the
///   old file and go on with the new one.
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
    func indexPath(_ generation: UInt64) -> String { directory + "/history-\(generation).idx" }
    let metrics: StoreMetrics
    let fs: any FileSystem

    /// The write lock's file (`nil` when opened read-only).
    private let lockFile: OpenFile?
    /// Whether the journal was opened read-only: no lock, no compaction, no writes.
    let readOnly: Bool
    /// The journal as last opened (`nil` until the first read).
    var file: OpenFile?
    var inode: UInt64 = 0
    /// Bytes of the journal read and applied (always at a line boundary).
    var offset: Int64 = 0
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

    let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

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
            }
            return
        }
        try StoreDirectory.prepare(directory, fileSystem: fileSystem)
        do {
            lockFile = try fileSystem.open(lockPath, [.readWrite, .create])
        } catch {
            throw Self.ioError(error)
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
    }

    deinit {
        if let file { fs.close(file) }
        if let lockFile { fs.close(lockFile) }
    }

    static func emptySnapshot(_ settings: LocalStoreSettings) -> [JournalRecord] {
        [JournalRecord.makeHeader(nextTransactionID: JournalState.firstTransactionID, snapshotLines: 2), JournalRecord.make(settings)]
    }

    // MARK: - Reading

    /// Reads what other processes appended since the last read.
    /// - Returns: the entries that changed, in journal order (an entry at most once).
    func refresh() throws(LocalAppStoreError) -> [QueueEntry] {
        try readNewRecords(cutTornTail: false)
    }

    /// `value`, unless reading the compacted history to make it met a failure: then that
    /// failure (the history is damaged or unreadable; nothing is answered from it).
    func checked<T>(_ value: T) throws(LocalAppStoreError) -> T {
        if let failure = state.history?.failure { throw failure }
        return value
    }

    // MARK: - Writing

    /// Runs `body` on the up-to-date state under the write lock, then makes the records it
    /// returns durable and applies them.
    ///
    /// - Parameters:
    ///   - sync: whether to sync before returning. Only a change that a crash may lose
    ///     harmlessly skips it (a purchase just queued: nothing is charged yet; a finish: the
    ///     transaction is delivered again and the engine deduplicates it); the next synced
    ///     append makes it durable anyway, and a killed process loses nothing it wrote.
    ///   - body: gets the state (with every other process's changes) to draft on; returns
    ///     the records to append and a result. It must not block or wait.
    /// - Returns: `body`'s result and every entry that changed: other processes' changes
    ///   read first, then these records'.
    func transact<T>(
        sync: Bool = true,
        _ body: (inout JournalState) throws(LocalAppStoreError) -> (records: [JournalRecord], result: T)
    ) throws(LocalAppStoreError) -> (result: T, changed: [QueueEntry]) {
        try withLock { () throws(LocalAppStoreError) in
            var changed = try readNewRecords(cutTornTail: true)
            // The draft dies before the records are applied, so applying them does not copy
            // the state's dictionaries (copy-on-write) on every write.
            var (records, result) = try { () throws(LocalAppStoreError) in
                var draft = state
                return try body(&draft)
            }()
            // A draft decided on a history that could not be read is never written.
            _ = try checked(())
            if let consequences { records += consequences(state, records) }
            if !records.isEmpty {
                try append(records, sync: sync && syncsWrites)
                revision += 1
                published.withdraw()
                for record in records {
                    if let entry = state.apply(record) { changed.append(entry) }
                }
                if needsCompaction { compactIfPossible() }
            }
            return (result, Self.lastVersions(changed))
        }
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

    // MARK: - Internals

    func withLock<T>(_ body: () throws(LocalAppStoreError) -> T) throws(LocalAppStoreError) -> T {
        guard let lockFile else { throw Self.readOnlyError(directory) }
        try io { () throws(SystemCallError) in _ = try fs.lock(lockFile, waiting: true) }
        defer { fs.unlock(lockFile) }
        return try body()
    }

    func io<T>(_ body: () throws(SystemCallError) -> T) throws(LocalAppStoreError) -> T {
        do {
            return try body()
        } catch {
            throw Self.ioError(error)
        }
    }

    /// The store's error for a failed call, naming its file: "PATH: CALL failed: REASON".
    static func ioError(_ error: SystemCallError) -> LocalAppStoreError {
        .io(path: error.path, reason: "\(error.operation) failed: \(error.errno)")
    }

    /// The error for a write asked of a journal opened read-only.
    static func readOnlyError(_ directory: String) -> LocalAppStoreError {
        .io(path: directory, reason: "the store was opened read-only (the directory is not writable); nothing was written")
    }

    /// The inode the journal's path names now; `nil` when there is no journal.
    private func currentInode() throws(LocalAppStoreError) -> UInt64? {
        try io { () throws(SystemCallError) in try fs.status(atPath: journalPath, followingLinks: true)?.inode }
    }

    /// Opens the journal (after a start or a compaction) for appending.
    func openJournal() throws(LocalAppStoreError) -> (file: OpenFile, inode: UInt64) {
        try io { () throws(SystemCallError) in
            let file = try fs.open(journalPath, readOnly ? .read : [.readWrite, .create, .append])
            do throws(SystemCallError) {
                return (file, try fs.status(of: file).inode)
            } catch {
                fs.close(file)
                throw error
            }
        }
    }

    /// Applies every complete new line; when compaction replaced the journal, first the rest
    /// of the old file (so what changed in it is reported entry by entry), then the new one.
    /// A reader that missed compactions (it last read an older file than the one the new
    /// file replaced) reports every entry that differs from what it knew: the frames those
    /// compactions appended to `history.dat` and the new file's entries.
    private func readNewRecords(cutTornTail: Bool) throws(LocalAppStoreError) -> [QueueEntry] {
        guard let current = try currentInode() else {
            // Read-only over a directory with no journal yet: nothing to read.
            if readOnly && file == nil { return [] }
            throw .io(path: journalPath, reason: "the journal disappeared (was the state directory removed?)")
        }
        var changed: [QueueEntry] = []
        var replaced: (generation: UInt64, state: JournalState)? = nil
        if let old = file, current != inode {
            changed += try readLines(of: old, cutTornTail: false, reporting: true)
            fs.close(old)
            file = nil
            replaced = (generation, state)
        }
        if file == nil {
            let opened = try openJournal()
            file = opened.file
            inode = opened.inode
            offset = 0
            lineCount = 0
            snapshotLines = 0
            generation = 0
            state = JournalState(settings: state.settings)
        }
        guard let file else { return Self.lastVersions(changed) }
        // After a compaction of the file just finished, its snapshot is the state already
        // read: only the lines after it are news. After missed ones, see below.
        let fresh = try readLines(of: file, cutTornTail: cutTornTail, reporting: true, quietSnapshotAfter: replaced?.generation)
        if let replaced, generation != replaced.generation + 1 {
            changed += try missed(since: replaced.state, newFileEntries: fresh)
        } else {
            changed += fresh
        }
        if replaced != nil { revision += 1 }
        return Self.lastVersions(changed)
    }

    /// What changed since `before` (the state of the last file read, read to its end) when
    /// the compactions in between were missed: each entry they moved to the history or the
    /// new file holds, in its current version, unless `before` had that version already.
    private func missed(since before: JournalState, newFileEntries: [QueueEntry]) throws(LocalAppStoreError) -> [QueueEntry] {
        var candidates: [QueueEntry] = []
        if let history = state.history {
            let start = before.history?.historyEnd ?? UInt64(JournalHistory.headerLength)
            do {
                candidates = try history.frames(from: start).map { state.entries[$0.id] ?? $0 }
            } catch let error as LocalAppStoreError {
                throw error
            } catch {
                throw .io(path: historyPath, reason: "\(error)")
            }
        }
        candidates += newFileEntries
        return Self.lastVersions(candidates).filter { before.entries[$0.id] != $0 }
    }

    /// Applies the complete lines of `file` past `offset`.
    /// - Parameters:
    ///   - reporting: collect the entries the lines change.
    ///   - quietSnapshotAfter: when the file is the compaction of this generation, its
    ///     snapshot lines are not reported.
    private func readLines(
        of file: OpenFile, cutTornTail: Bool, reporting: Bool, quietSnapshotAfter previous: UInt64? = nil
    ) throws(LocalAppStoreError) -> [QueueEntry] {
        let bytes = try io { () throws(SystemCallError) in try fs.readToEnd(file, from: UInt64(offset)) }
        var changed: [QueueEntry] = []
        // A change's records apply together once its last one is read (`JournalRecord.more`);
        // `committed` ends after the last complete change, and only that far is read.
        var pending: [(record: JournalRecord, line: Int)] = []
        var lines = 0
        var committedLines = 0
        var committed = 0
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                lines += 1
                if index > lineStart {
                    let record = try decode(bytes[lineStart..<index], line: lineCount + lines)
                    if lineCount + lines == 1 { try startFile(with: record) }
                    pending.append((record, lineCount + lines))
                }
                if pending.last?.record.more != true {
                    if !pending.isEmpty { published.withdraw() }
                    for (record, number) in pending {
                        let quiet = previous.map { generation == $0 + 1 && number <= snapshotLines } ?? false
                        if let entry = state.apply(record), reporting, !quiet { changed.append(entry) }
                    }
                    pending.removeAll()
                    committed = index + 1
                    committedLines = lines
                }
                lineStart = index + 1
            }
            index += 1
        }
        lineCount += committedLines
        offset += Int64(committed)
        if committed > 0 { revision += 1 }
        if cutTornTail && committed < bytes.count {
            // Only a writer holding the lock gets here, so nobody is appending: the bytes
            // after the last complete change are a crashed writer's torn change.
            try io { () throws(SystemCallError) in try fs.truncate(file, to: UInt64(offset)) }
        }
        _ = try checked(())
        return changed
    }

    /// Checks a file's header and opens the history its generation names.
    private func startFile(with record: JournalRecord) throws(LocalAppStoreError) {
        guard record.kind == .header, record.format == JournalRecord.formatName else {
            throw .corrupt(path: journalPath, line: 1, reason: "the first line is not a \(JournalRecord.formatName) header")
        }
        guard let version = record.version, version <= JournalRecord.currentVersion else {
            throw .corrupt(
                path: journalPath, line: 1,
                reason: "journal version \(record.version.map(String.init) ?? "missing") is newer than this build reads (\(JournalRecord.currentVersion))")
        }
        generation = record.generation ?? 0
        snapshotLines = record.snapshotLines ?? 0
        let history = generation == 0 ? nil : try openHistory(generation: generation, historyEnd: record.historyEnd ?? 0)
        state = JournalState(settings: state.settings, history: history)
    }

    private func decode(_ line: ArraySlice<UInt8>, line number: Int) throws(LocalAppStoreError) -> JournalRecord {
        do {
            return try decoder.decode(JournalRecord.self, from: Data(line))
        } catch {
            throw .corrupt(path: journalPath, line: number, reason: "not a journal record (\(error))")
        }
    }

    func encode(_ records: [JournalRecord], asOneChange: Bool = false) throws(LocalAppStoreError) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, var record) in records.enumerated() {
            if asOneChange, index < records.count - 1 { record.more = true }
            do {
                bytes.append(contentsOf: try encoder.encode(record))
            } catch {
                throw .io(path: journalPath, reason: "cannot encode a journal record: \(error)")
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    private func append(_ records: [JournalRecord], sync: Bool) throws(LocalAppStoreError) {
        let bytes = try encode(records, asOneChange: true)
        guard let file else { throw .io(path: journalPath, reason: "the journal is not open") }
        try io { () throws(SystemCallError) in
            try fs.write(file, bytes)
            if sync {
                let start = DispatchTime.now().uptimeNanoseconds
                try fs.synchronize(file, .all)
                metrics.addFsyncTime(nanoseconds: DispatchTime.now().uptimeNanoseconds &- start)
            }
        }
        metrics.countAppend()
        if sync { metrics.countFsync() }
        offset += Int64(bytes.count)
        lineCount += records.count
    }

    /// Writes `records` to a temporary file and renames it over the journal, durably.
    @discardableResult
    func writeSnapshot(_ records: [JournalRecord]) throws(LocalAppStoreError) -> Int {
        let bytes = try encode(records)
        let temporary = journalPath + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
        try io { () throws(SystemCallError) in
            try fs.replaceAtomically(
                journalPath, with: bytes, temporaryPath: temporary, fileSync: syncsWrites ? .all : nil,
                syncsDirectory: syncsWrites)
        }
        if syncsWrites {
            metrics.countFsync()
            metrics.countFsync()
        }
        return bytes.count
    }

    /// Keeps the last version of each entry, in the order of their last change.
    static func lastVersions(_ entries: [QueueEntry]) -> [QueueEntry] {
        guard entries.count > 1 else { return entries }
        var seen = Set<String>()
        var result: [QueueEntry] = []
        for entry in entries.reversed() where seen.insert(entry.id).inserted {
            result.append(entry)
        }
        return result.reversed()
    }
}
