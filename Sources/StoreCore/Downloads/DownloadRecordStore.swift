import Foundation
internal import SystemIO

/// The downloads' records: one JSON file per download in `Downloads/records/`, rewritten
/// atomically and durably at every state change, with its `CheckpointLog` appended to at
/// checkpoints in between, and the copy of each in memory.
/// Not thread-safe: `DownloadManager` (an actor) owns it.
struct DownloadRecordStore {
    private let fs: any FileSystem
    private let paths: DownloadPaths
    private var loaded = false
    /// Every known download, by identifier, as this process last saw or changed it.
    private(set) var records: [String: DownloadRecord] = [:]
    private var lastSequence = 0
    /// The generation of each record as last written or read here (see `logGeneration`).
    private var generations: [String: Int] = [:]
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
            guard var record = read(String(name.dropLast(5))) else { continue }
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
        guard let record = read(id) else { return }
        records[id] = record
    }

    /// Download `id`'s record with its checkpoint log applied; `nil` when there is no readable
    /// record of a known format.
    private mutating func read(_ id: String) -> DownloadRecord? {
        guard let bytes = try? fs.readFile(paths.record(id)),
            var record = try? JSONDecoder().decode(DownloadRecord.self, from: Data(bytes)),
            DownloadRecord.readableFormats.contains(record.formatVersion), record.download.id == id
        else { return nil }
        generations[id] = record.logGeneration ?? 0
        if record.formatVersion == DownloadRecord.currentFormat, let log = try? fs.readFile(paths.checkpointLog(id)) {
            CheckpointLog.apply(CheckpointLog.entries(in: log), to: &record)
        }
        return record
    }

    /// Keeps `record` in memory and writes it durably (synced, renamed over the old one, the
    /// directory synced) under the next generation, then drops the checkpoint log, whose
    /// entries it now holds.
    mutating func commit(_ record: DownloadRecord) throws(DownloadError) {
        let id = record.download.id
        let path = paths.record(id)
        guard !isDead else { throw .fileSystem(path: path, reason: "the process is gone") }
        var record = record
        let generation = max(generations[id] ?? 0, record.logGeneration ?? 0) + 1
        record.logGeneration = generation
        records[id] = record
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(record) else {
            throw .fileSystem(path: path, reason: "the record could not be encoded")
        }
        try DownloadError.translating { () throws(SystemCallError) in
            try fs.createDirectories(paths.recordsDirectory)
            try fs.replaceAtomically(path, with: Array(data), fileSync: .all, syncsDirectory: true)
        }
        generations[id] = generation
        try? fs.removeFile(paths.checkpointLog(id))
    }

    /// Appends `entry` (whose generation is filled in) to download `id`'s checkpoint log,
    /// without syncing it: call only once what it names is durable.
    func log(_ id: String, _ entry: (Int) -> CheckpointLog.Entry) throws(DownloadError) {
        let path = paths.checkpointLog(id)
        guard !isDead else { throw .fileSystem(path: path, reason: "the process is gone") }
        let line = CheckpointLog.line(entry(generations[id] ?? 0))
        try DownloadError.translating { () throws(SystemCallError) in
            let file = try fs.open(path, [.write, .create, .append], mode: 0o600)
            defer { fs.close(file) }
            try fs.write(file, line[...])
        }
    }
}
