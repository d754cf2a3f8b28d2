import Foundation
internal import SystemIO

/// Writing the journal: the lock, appends and their commits (synced after the lock), the
/// syncs a read makes before it hands out others' lines, snapshots renamed into place, and
/// the store's errors for failed calls.
extension StoreJournal {
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
        .io(
            path: directory,
            reason: "the store was opened read-only (the directory is not writable); nothing was written")
    }

    func encode(_ records: [JournalRecord], asOneChange: Bool = false) throws(LocalAppStoreError) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, var record) in records.enumerated() {
            if asOneChange, index < records.count - 1 { record.more = true }
            do {
                try encoder.append(record, to: &bytes)
            } catch {
                throw .io(path: journalPath, reason: "cannot encode a journal record: \(error)")
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// Appends `records` as one change, without a sync: the caller holds the lock, and
    /// `commit` makes the append durable and applies it once the lock is let go.
    /// - Returns: where the append lies in the file.
    func append(_ records: [JournalRecord]) throws(LocalAppStoreError) -> JournalAppend {
        let bytes = try encode(records, asOneChange: true)
        guard let file else { throw .io(path: journalPath, reason: "the journal is not open") }
        try io { () throws(SystemCallError) in try fs.write(file, bytes) }
        metrics.countAppend()
        let appended = JournalAppend(records: records, start: offset, end: offset + Int64(bytes.count))
        offset = appended.end
        lineCount += records.count
        return appended
    }

    /// Syncs `appended` when `sync` asks, or when lines of other processes before it may not
    /// be durable yet (they are handed out with it), then applies its records.
    ///
    /// A failed sync leaves the append unapplied and unread: the next read takes it from the
    /// file, as another process would, so what this process reports matches what is there.
    /// - Returns: the entries the records changed.
    func commit(_ appended: JournalAppend, sync: Bool) throws(LocalAppStoreError) -> [QueueEntry] {
        if syncsWrites, sync || settledOffset < appended.start, let file {
            do throws(LocalAppStoreError) {
                try synchronize(file)
            } catch {
                offset = appended.start
                lineCount -= appended.records.count
                throw error
            }
        }
        settledOffset = appended.end
        revision += 1
        published.withdraw()
        return appended.records.compactMap { state.apply($0) }
    }

    /// Syncs the journal when this process has read lines of other processes that may not be
    /// durable yet, before anything read is handed out: a writer syncs only after it lets the
    /// lock go, and a file-change notification wakes readers as soon as the bytes are written.
    /// Once synced, nothing a power loss can take has been announced, notified or answered.
    func makeReadDurable() throws(LocalAppStoreError) {
        if syncsWrites, settledOffset < offset, let file { try synchronize(file) }
        settledOffset = offset
    }

    /// `fdatasync` of a journal file (the data and the size that reads it back), counted.
    func synchronize(_ file: OpenFile) throws(LocalAppStoreError) {
        let start = DispatchTime.now().uptimeNanoseconds
        try io { () throws(SystemCallError) in try fs.synchronize(file, .data) }
        metrics.addFsyncTime(nanoseconds: DispatchTime.now().uptimeNanoseconds &- start)
        metrics.countFsync()
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

}
