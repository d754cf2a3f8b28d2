import Foundation
internal import SystemIO

/// Writing the journal: the lock, appends (synced or not), snapshots renamed into place, and
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
                bytes.append(contentsOf: try encoder.encode(record))
            } catch {
                throw .io(path: journalPath, reason: "cannot encode a journal record: \(error)")
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    func append(_ records: [JournalRecord], sync: Bool) throws(LocalAppStoreError) {
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

}
