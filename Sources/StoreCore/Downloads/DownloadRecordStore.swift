import Foundation
import SystemIO

/// The downloads' records: one JSON file per download in `Downloads/records/`, rewritten
/// atomically at every checkpoint and state change, and the copy of each in memory.
/// Not thread-safe: `DownloadManager` (an actor) owns it.
struct DownloadRecordStore {
    private let fs: any FileSystem
    private let paths: DownloadPaths
    private var loaded = false
    /// Every known download, by identifier, as this process last saw or changed it.
    private(set) var records: [String: DownloadRecord] = [:]
    private var lastSequence = 0
    /// Set when the process is treated as dead (`simulateProcessDeath`): nothing is written.
    var isDead = false

    init(fileSystem: any FileSystem, paths: DownloadPaths) {
        self.fs = fileSystem
        self.paths = paths
    }

    subscript(id: String) -> DownloadRecord? {
        get { records[id] }
        set { records[id] = newValue }
    }

    /// The ID of the download that serves `id`: its own download's, or the one its
    /// transaction joined; `id` itself when there is neither.
    func downloadID(serving id: String) -> String {
        if records[id] != nil { return id }
        return records.values.first { $0.covers(id) }?.download.id ?? id
    }

    /// The next sequence number, for a new download (orders listing and scheduling).
    mutating func takeSequence() -> Int {
        lastSequence += 1
        return lastSequence
    }

    /// Reads every record the first time it is called. A download recorded as active whose
    /// lease is free was running in a process that died: it waits to be resumed from its
    /// last checkpoint.
    mutating func loadIfNeeded() {
        guard !loaded else { return }
        loaded = true
        let names = (try? fs.contentsOfDirectory(paths.recordsDirectory)) ?? []
        for name in names where name.hasSuffix(".json") {
            guard var record = read(paths.recordsDirectory + "/" + name), record.download.id + ".json" == name else { continue }
            if record.download.state == .active, let free = try? fs.tryLease(paths.lock(record.download.id)) {
                fs.release(free)
                record.download.state = .waiting
                record.download.bytesPerSecond = 0
            }
            records[record.download.id] = record
            lastSequence = max(lastSequence, record.sequence)
        }
    }

    /// Re-reads download `id`'s record from disk (another process may have changed it).
    mutating func reload(_ id: String) {
        guard let record = read(paths.record(id)), record.download.id == id else { return }
        records[id] = record
    }

    private func read(_ path: String) -> DownloadRecord? {
        guard let bytes = try? fs.readFile(path),
              let record = try? JSONDecoder().decode(DownloadRecord.self, from: Data(bytes)),
              record.formatVersion == 1
        else { return nil }
        return record
    }

    /// Keeps `record` in memory and writes it durably.
    /// - Parameter checkpoint: a checkpoint's rename need not survive a power loss: the
    ///   previous record then still describes bytes that are durable, and the download
    ///   resumes from there. Every other change syncs the directory too.
    mutating func commit(_ record: DownloadRecord, checkpoint: Bool = false) throws(DownloadError) {
        let path = paths.record(record.download.id)
        guard !isDead else { throw .fileSystem(path: path, reason: "the process is gone") }
        records[record.download.id] = record
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(record) else {
            throw .fileSystem(path: path, reason: "the record could not be encoded")
        }
        try DownloadError.translating { () throws(SystemCallError) in
            try fs.createDirectories(paths.recordsDirectory)
            try fs.replaceAtomically(path, with: Array(data), fileSync: .all, syncsDirectory: !checkpoint)
        }
    }
}
