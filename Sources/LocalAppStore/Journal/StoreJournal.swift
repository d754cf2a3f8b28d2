import Foundation
import SystemIO

/// The store's state on disk: an append-only journal of JSON lines in the state directory,
/// shared by every process that opens the same directory.
///
/// - Writes take an exclusive `flock` on `store.lock` only while they write: read the other
///   processes' new records, append this one's, `fsync`, release.
/// - A line counts once it ends with a newline; a torn last line (a crash mid-append) is
///   ignored on load and cut off by the next writer.
/// - When the journal holds many superseded records it is compacted: the state is written
///   to a temporary file, `fsync`ed, renamed over the journal, and the directory `fsync`ed.
///   Readers notice the new inode and read the new file from its start.
///
/// Not thread-safe: its owner (the `LocalAppStore` actor) serializes calls.
final class StoreJournal {
    let directory: String
    let journalPath: String
    let lockPath: String
    private let metrics: StoreMetrics
    private let fs: any FileSystem

    private let lockFile: OpenFile
    /// The journal as last opened (`nil` until the first read).
    private var file: OpenFile?
    private var inode: UInt64 = 0
    /// Bytes of the journal read and applied (always at a line boundary).
    private var offset: Int64 = 0
    /// Complete lines read from the current file (for error messages and compaction).
    private var lineCount = 0
    private(set) var state: JournalState
    /// Grows whenever records are applied (read from another process's writes, or appended
    /// here), so a reader can tell that nothing changed without comparing states.
    private(set) var revision = 0

    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    /// Compaction starts when the journal has this many records beyond twice the live ones.
    static let defaultCompactionSlack = 1024
    private let compactionSlack: Int
    private let syncsWrites: Bool
    /// The records a write adds besides its own, from the state before it and its records
    /// (the notifications of its events): they go out in the same durable append.
    var consequences: ((JournalState, [JournalRecord]) -> [JournalRecord])?

    /// Opens (creating when needed) the journal in `directory`.
    ///
    /// - Parameters:
    ///   - directory: the state directory, created with mode 0700.
    ///   - initialSettings: the settings a new journal starts with.
    ///   - metrics: where `fsync`s are counted.
    ///   - compactionSlack: superseded records tolerated before compacting (tests lower it).
    ///   - syncsWrites: `false` skips every `fsync` (only to seed a benchmark's history).
    ///   - fileSystem: the file system the journal is kept through.
    /// - Throws: `LocalAppStoreError.io` or `.corrupt`.
    init(
        directory: String, initialSettings: LocalStoreSettings, metrics: StoreMetrics,
        compactionSlack: Int = StoreJournal.defaultCompactionSlack, syncsWrites: Bool = true,
        fileSystem: any FileSystem = POSIXFileSystem()
    ) throws(LocalAppStoreError) {
        self.fs = fileSystem
        self.compactionSlack = compactionSlack
        self.syncsWrites = syncsWrites
        self.directory = directory
        self.journalPath = directory + "/journal.jsonl"
        self.lockPath = directory + "/store.lock"
        self.metrics = metrics
        self.state = JournalState(settings: initialSettings)
        do {
            try fileSystem.createDirectories(directory, mode: 0o700, enforcingMode: true)
            lockFile = try fileSystem.open(lockPath, [.readWrite, .create])
        } catch {
            throw Self.ioError(error)
        }
        try withLock { () throws(LocalAppStoreError) in
            if try currentInode() == nil {
                try writeSnapshot(JournalState(settings: initialSettings).snapshotRecords)
            }
            _ = try readNewRecords(cutTornTail: true)
            if lineCount == 0 {
                // An empty journal (cut to nothing from outside) holds no state: start it anew.
                try writeSnapshot(JournalState(settings: initialSettings).snapshotRecords)
                _ = try readNewRecords(cutTornTail: true)
            }
        }
    }

    deinit {
        if let file { fs.close(file) }
        fs.close(lockFile)
    }

    // MARK: - Reading

    /// Reads what other processes appended since the last read.
    /// - Returns: the entries that changed, in journal order (an entry at most once).
    func refresh() throws(LocalAppStoreError) -> [QueueEntry] {
        try readNewRecords(cutTornTail: false)
    }

    // MARK: - Writing

    /// Runs `body` on the up-to-date state under the write lock, then makes the records it
    /// returns durable and applies them.
    ///
    /// - Parameters:
    ///   - sync: whether to `fsync` before returning. Only a change that a crash may lose
    ///     harmlessly skips it (a finish: the transaction is delivered again and the engine
    ///     deduplicates it); the next synced append makes it durable anyway, and a killed
    ///     process loses nothing it wrote.
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
            if let consequences { records += consequences(state, records) }
            if !records.isEmpty {
                try append(records, sync: sync && syncsWrites)
                revision += 1
                for record in records {
                    if let entry = state.apply(record) { changed.append(entry) }
                }
                if lineCount > 2 * state.entries.count + compactionSlack {
                    try compact()
                }
            }
            return (result, Self.lastVersions(changed))
        }
    }

    // MARK: - Internals

    private func withLock<T>(_ body: () throws(LocalAppStoreError) -> T) throws(LocalAppStoreError) -> T {
        try io { () throws(SystemCallError) in _ = try fs.lock(lockFile, waiting: true) }
        defer { fs.unlock(lockFile) }
        return try body()
    }

    private func io<T>(_ body: () throws(SystemCallError) -> T) throws(LocalAppStoreError) -> T {
        do {
            return try body()
        } catch {
            throw Self.ioError(error)
        }
    }

    /// The store's error for a failed call, naming its file: "PATH: CALL failed: REASON".
    private static func ioError(_ error: SystemCallError) -> LocalAppStoreError {
        .io(path: error.path, reason: "\(error.operation) failed: \(error.errno)")
    }

    /// The inode the journal's path names now; `nil` when there is no journal.
    private func currentInode() throws(LocalAppStoreError) -> UInt64? {
        try io { () throws(SystemCallError) in try fs.status(atPath: journalPath, followingLinks: true)?.inode }
    }

    /// Opens the journal (after a start or a compaction) for appending.
    private func openJournal() throws(LocalAppStoreError) -> (file: OpenFile, inode: UInt64) {
        try io { () throws(SystemCallError) in
            let file = try fs.open(journalPath, [.readWrite, .create, .append])
            do throws(SystemCallError) {
                return (file, try fs.status(of: file).inode)
            } catch {
                fs.close(file)
                throw error
            }
        }
    }

    /// Reopens the journal when compaction replaced it, then applies every complete new line.
    private func readNewRecords(cutTornTail: Bool) throws(LocalAppStoreError) -> [QueueEntry] {
        guard let current = try currentInode() else {
            throw .io(path: journalPath, reason: "the journal disappeared (was the state directory removed?)")
        }
        var before: [String: QueueEntry]? = nil
        if file == nil || current != inode {
            if let old = file {
                fs.close(old)
                file = nil
                before = state.entries
            }
            let opened = try openJournal()
            file = opened.file
            inode = opened.inode
            offset = 0
            lineCount = 0
            state = JournalState(settings: state.settings)
        }
        guard let file else { return [] }
        let bytes = try io { () throws(SystemCallError) in try fs.readToEnd(file, from: UInt64(offset)) }
        var changed: [QueueEntry] = []
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                lineCount += 1
                if index > lineStart {
                    let record = try decode(bytes[lineStart..<index])
                    if lineCount == 1 { try checkHeader(record) }
                    if let entry = state.apply(record) { changed.append(entry) }
                }
                lineStart = index + 1
            }
            index += 1
        }
        offset += Int64(lineStart)
        if lineStart > 0 || before != nil { revision += 1 }
        if cutTornTail && lineStart < bytes.count {
            // Only a writer holding the lock gets here, so nobody is appending: the
            // bytes after the last newline are a crashed writer's torn record.
            try io { () throws(SystemCallError) in try fs.truncate(file, to: UInt64(offset)) }
        }
        if let before {
            // The file was replaced: report what differs from the state before it.
            return state.orderedEntries.filter { before[$0.id] != $0 }
        }
        return Self.lastVersions(changed)
    }

    private func decode(_ line: ArraySlice<UInt8>) throws(LocalAppStoreError) -> JournalRecord {
        do {
            return try decoder.decode(JournalRecord.self, from: Data(line))
        } catch {
            throw .corrupt(path: journalPath, line: lineCount, reason: "not a journal record (\(error))")
        }
    }

    private func checkHeader(_ record: JournalRecord) throws(LocalAppStoreError) {
        guard record.kind == .header, record.format == JournalRecord.formatName else {
            throw .corrupt(path: journalPath, line: 1, reason: "the first line is not a \(JournalRecord.formatName) header")
        }
        guard let version = record.version, version <= JournalRecord.currentVersion else {
            throw .corrupt(
                path: journalPath, line: 1,
                reason: "journal version \(record.version.map(String.init) ?? "missing") is newer than this build reads (\(JournalRecord.currentVersion))")
        }
    }

    private func encode(_ records: [JournalRecord]) throws(LocalAppStoreError) -> [UInt8] {
        var bytes: [UInt8] = []
        for record in records {
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
        let bytes = try encode(records)
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
    private func writeSnapshot(_ records: [JournalRecord]) throws(LocalAppStoreError) -> Int {
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

    private func compact() throws(LocalAppStoreError) {
        let records = state.snapshotRecords
        let size = try writeSnapshot(records)
        metrics.countCompaction()
        // Continue on the new file after its last line: it holds exactly the state in memory,
        // and nobody else appended to it (the lock is held), so there is nothing to re-read.
        if let old = file { fs.close(old) }
        file = nil
        let opened = try openJournal()
        file = opened.file
        inode = opened.inode
        offset = Int64(size)
        lineCount = records.count
    }

    /// Keeps the last version of each entry, in the order of their last change.
    private static func lastVersions(_ entries: [QueueEntry]) -> [QueueEntry] {
        guard entries.count > 1 else { return entries }
        var seen = Set<String>()
        var result: [QueueEntry] = []
        for entry in entries.reversed() where seen.insert(entry.id).inserted {
            result.append(entry)
        }
        return result.reversed()
    }
}
