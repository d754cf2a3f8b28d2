import Foundation

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

    private let lockFD: Int32
    private var fd: Int32 = -1
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

    /// Opens (creating when needed) the journal in `directory`.
    ///
    /// - Parameters:
    ///   - directory: the state directory, created with mode 0700.
    ///   - initialSettings: the settings a new journal starts with.
    ///   - metrics: where `fsync`s are counted.
    ///   - compactionSlack: superseded records tolerated before compacting (tests lower it).
    ///   - syncsWrites: `false` skips every `fsync` (only to seed a benchmark's history).
    /// - Throws: `LocalAppStoreError.io` or `.corrupt`.
    init(
        directory: String, initialSettings: LocalStoreSettings, metrics: StoreMetrics,
        compactionSlack: Int = StoreJournal.defaultCompactionSlack, syncsWrites: Bool = true
    ) throws(LocalAppStoreError) {
        self.compactionSlack = compactionSlack
        self.syncsWrites = syncsWrites
        self.directory = directory
        self.journalPath = directory + "/journal.jsonl"
        self.lockPath = directory + "/store.lock"
        self.metrics = metrics
        self.state = JournalState(settings: initialSettings)
        do {
            try Platform.makeDirectory(directory, mode: 0o700)
            lockFD = try Platform.openReadWrite(lockPath)
        } catch {
            throw .io(path: error.path, reason: "\(error.call) failed: \(error.reason)")
        }
        try withLock { () throws(LocalAppStoreError) in
            if try io({ () throws(Platform.PlatformError) in try Platform.inode(atPath: journalPath) }) == nil {
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
        if fd >= 0 { Platform.closeDescriptor(fd) }
        Platform.closeDescriptor(lockFD)
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
            let (records, result) = try { () throws(LocalAppStoreError) in
                var draft = state
                return try body(&draft)
            }()
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
        try io { () throws(Platform.PlatformError) in try Platform.lockExclusive(lockFD, path: lockPath) }
        defer { Platform.unlock(lockFD) }
        return try body()
    }

    private func io<T>(_ body: () throws(Platform.PlatformError) -> T) throws(LocalAppStoreError) -> T {
        do {
            return try body()
        } catch {
            throw .io(path: error.path, reason: "\(error.call) failed: \(error.reason)")
        }
    }

    /// Reopens the journal when compaction replaced it, then applies every complete new line.
    private func readNewRecords(cutTornTail: Bool) throws(LocalAppStoreError) -> [QueueEntry] {
        let current = try io { () throws(Platform.PlatformError) in try Platform.inode(atPath: journalPath) }
        guard let current else {
            throw .io(path: journalPath, reason: "the journal disappeared (was the state directory removed?)")
        }
        var before: [String: QueueEntry]? = nil
        if fd < 0 || current != inode {
            if fd >= 0 {
                Platform.closeDescriptor(fd)
                fd = -1
                before = state.entries
            }
            fd = try io { () throws(Platform.PlatformError) in try Platform.openReadWrite(journalPath, append: true) }
            inode = try io { () throws(Platform.PlatformError) in try Platform.identity(fd, path: journalPath).inode }
            offset = 0
            lineCount = 0
            state = JournalState(settings: state.settings)
        }
        let bytes = try io { () throws(Platform.PlatformError) in try Platform.readToEnd(fd, from: offset, path: journalPath) }
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
            try io { () throws(Platform.PlatformError) in try Platform.truncate(fd, to: offset, path: journalPath) }
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
        try io { () throws(Platform.PlatformError) in
            try Platform.writeAll(fd, bytes, path: journalPath)
            if sync {
                let start = DispatchTime.now().uptimeNanoseconds
                try Platform.sync(fd, path: journalPath)
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
        try io { () throws(Platform.PlatformError) in
            Platform.removeFile(temporary)
            let out = try Platform.openReadWrite(temporary)
            defer { Platform.closeDescriptor(out) }
            try Platform.writeAll(out, bytes, path: temporary)
            if syncsWrites { try Platform.sync(out, path: temporary) }
            try Platform.renameItem(temporary, journalPath)
            if syncsWrites { try Platform.syncDirectory(directory) }
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
        Platform.closeDescriptor(fd)
        fd = -1
        fd = try io { () throws(Platform.PlatformError) in try Platform.openReadWrite(journalPath, append: true) }
        inode = try io { () throws(Platform.PlatformError) in try Platform.identity(fd, path: journalPath).inode }
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
