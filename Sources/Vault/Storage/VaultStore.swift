import Crypto
import SystemIO

/// The vault file engine: the header, the key, the append-only log of sealed records, and
/// what the log holds — from the index (`NAME.idx`, when there is a valid one) plus the records
/// after it, or from every record. Not thread-safe; `Vault` keeps it behind one lock.
///
/// Why one file of ~600 lines: opening, reading, writing, the index and replacing the file all
/// change the same private log state (`log`, `index`, `loaded`, the sticky failure); splitting
/// them by extension would mean widening those to the whole module.
///
/// Items the index names are read, and authenticated, when asked for; reading the records
/// after the index is what opening costs, so it does not grow with the number of items.
final class VaultStore {
    let path: String
    let directory: String
    let configuration: VaultConfiguration
    let files: FileGuard
    var fs: any FileSystem { configuration.fileSystem }
    /// The cross-process lock's file (`nil` when read-only and no writer ever made one).
    private let lockFile: OpenFile?
    private var file: OpenFile
    private var identity: (device: UInt64, inode: UInt64)
    private(set) var header: VaultHeader
    private let dataKey: SecureBytes
    private(set) var codec: RecordCodec
    private(set) var log: LogState
    /// The index the log's replay started from, if any.
    private(set) var index: VaultIndex?
    /// Items read through the index (the records before it never change).
    private var loaded: [VaultItem.ID: VaultItem] = [:]
    private var failure: String?

    var indexPath: String { path + ".idx" }
    var headerEnd: UInt64 { UInt64(VaultFormat.headerLength) }
    var recordCount: Int { log.recordCount }
    var liveCount: Int { log.liveCount }
    /// The file's size as this handle last verified it.
    var verifiedSize: UInt64 { log.validEnd }

    // MARK: - Opening

    /// Opens (creating if needed) the vault at `path`. Every fallible step runs before the
    /// object exists, so a failure closes each descriptor exactly once.
    init(path: String, key: VaultKey, configuration: VaultConfiguration) throws {
        let fs = configuration.fileSystem
        let files = FileGuard(fs: fs, readOnly: configuration.readOnly)
        let directory = FileGuard.parent(of: path)
        try files.ensureDirectory(directory)
        // Read-only: the lock file only when a writer made one (a reader retrying under it).
        let lockFile: OpenFile?
        if !configuration.readOnly {
            lockFile = try files.openOrCreate(path + ".lock")
        } else if try fs.status(atPath: path + ".lock", followingLinks: false) != nil {
            lockFile = try files.openExisting(path + ".lock")
        } else {
            lockFile = nil
        }
        var file: OpenFile?
        let opened: Opened
        let dataKey: SecureBytes
        do {
            if configuration.readOnly, try fs.status(atPath: path, followingLinks: false) == nil {
                throw VaultError.io(
                    path: path, operation: "open (read-only: there is no vault to read)",
                    errno: Errno.noSuchFile.rawValue)
            }
            if let lockFile, try fs.status(atPath: path, followingLinks: false) == nil {
                try Self.withLock(lockFile, fs, path) {
                    if try fs.status(atPath: path, followingLinks: false) == nil {
                        try Self.create(path: path, key: key, configuration: configuration, files: files)
                    }
                }
            }
            let existing = try files.openExisting(path)
            file = existing
            let status = try files.status(existing)
            let head = try Self.read(
                existing, from: 0, to: min(status.size, UInt64(VaultFormat.maxHeaderLength)), fs: fs, path: path)
            let (header, _) = try VaultHeader.parse(head[...], path: path)
            dataKey = try Self.unwrap(header, key: key, configuration: configuration, files: files, path: path)
            opened = try Self.readLog(
                existing, status: status, header: header, dataKey: dataKey, configuration: configuration, path: path)
        } catch {
            if let file { fs.close(file) }
            if let lockFile { fs.close(lockFile) }
            if let error = error as? SystemCallError {
                throw VaultError.io(path: path, operation: error.operation, errno: error.code)
            }
            throw error
        }
        self.path = path
        self.directory = directory
        self.configuration = configuration
        self.files = files
        self.lockFile = lockFile
        self.file = opened.file
        self.dataKey = dataKey
        (identity, header, codec, log, index) = (opened.identity, opened.header, opened.codec, opened.log, opened.index)
        // An old (1.0-era) or large vault read without an index gets one now, so the next
        // open reads only its header and the records after it.
        if index == nil { writeIndexIfWorthwhile() }
    }

    deinit {
        fs.close(file)
        if let lockFile { fs.close(lockFile) }
    }

    /// What reading a file's log established.
    struct Opened {
        var file: OpenFile
        var identity: (device: UInt64, inode: UInt64)
        var header: VaultHeader
        var codec: RecordCodec
        var log: LogState
        var index: VaultIndex?
    }

    /// Reads `file`'s log: from its index when there is a valid one for it (the records after
    /// the index), else every record.
    private static func readLog(
        _ file: OpenFile, status: FileStatus, header: VaultHeader, dataKey: SecureBytes,
        configuration: VaultConfiguration, path: String, usingIndex: Bool = true
    ) throws -> Opened {
        let fs = configuration.fileSystem
        let codec = try RecordCodec(cipher: header.cipher, fileID: header.fileID, dataKey: dataKey)
        let headerEnd = UInt64(VaultFormat.headerLength)
        if usingIndex,
            let index = try validIndex(
                for: file, size: status.size, header: header, codec: codec, configuration: configuration, path: path)
        {
            do {
                var log = LogState(index: index)
                let tail = try read(file, from: log.validEnd, to: status.size, fs: fs, path: path)
                try log.consume(
                    tail[...], at: log.validEnd, codec: codec, path: path,
                    baseHolds: { try holds(index, $0, codec: codec) })
                return Opened(
                    file: file, identity: (status.device, status.inode), header: header, codec: codec, log: log,
                    index: index)
            } catch is VaultIndex.Damaged {
                // Read the whole log instead, below.
            }
        }
        var log = LogState(headerEnd: headerEnd, codec: codec)
        let bytes = try read(file, from: headerEnd, to: status.size, fs: fs, path: path)
        try log.consume(bytes[...], at: headerEnd, codec: codec, path: path, baseHolds: { _ in false })
        return Opened(
            file: file, identity: (status.device, status.inode), header: header, codec: codec, log: log, index: nil)
    }

    /// Runs `body`; when it meets a damaged index page, drops the index, reads the whole log
    /// instead (and writes a new index) and runs `body` again. An index is only a cache.
    private func recoveringFromDamagedIndex<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch is VaultIndex.Damaged {
            try readWholeLog()
            return try body()
        }
    }

    /// Drops the index and replays every record of the file (then writes a new index).
    private func readWholeLog() throws {
        let status = try files.status(file)
        let opened = try Self.readLog(
            file, status: status, header: header, dataKey: dataKey, configuration: configuration, path: path,
            usingIndex: false)
        (identity, codec, log, index) = (opened.identity, opened.codec, opened.log, nil)
        loaded = [:]
        writeIndexIfWorthwhile()
    }

    /// The index beside the vault when it belongs to this file as it is: same file id, within
    /// the file, and the record it ends after is the one in the file (its tag matches).
    private static func validIndex(
        for file: OpenFile, size: UInt64, header: VaultHeader, codec: RecordCodec, configuration: VaultConfiguration,
        path: String
    ) throws -> VaultIndex? {
        let fs = configuration.fileSystem
        let indexPath = path + ".idx"
        guard let status = try? fs.status(atPath: indexPath, followingLinks: false), status.isRegularFile,
            status.owner == fs.currentUser(),
            let index = VaultIndex.open(indexPath, fileID: header.fileID, codec: codec, fs: fs)
        else { return nil }
        let headerEnd = UInt64(VaultFormat.headerLength)
        guard index.coveredEnd >= headerEnd, index.coveredEnd <= size else { return nil }
        let chain =
            index.coveredEnd == headerEnd
            ? header.fileID : try read(file, from: index.coveredEnd - 16, to: index.coveredEnd, fs: fs, path: path)
        return chain == index.chain ? index : nil
    }

    static func holds(_ index: VaultIndex, _ id: VaultItem.ID, codec: RecordCodec) throws -> Bool {
        let key = try codec.indexKey(id)
        return try !index.entries(withPrefix: key).isEmpty
    }

    static func read(
        _ file: OpenFile, from start: UInt64, to end: UInt64, fs: any FileSystem, path: String
    ) throws -> [UInt8] {
        guard end > start else { return [] }
        guard end - start <= UInt64(Int.max) else {
            throw VaultError.integrity(path: path, offset: 0, detail: "the file is too large to be a vault")
        }
        do { return try fs.read(file, count: Int(end - start), at: start) } catch {
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        }
    }

    // MARK: - Items

    /// One item: from the records after the index, else through the index (read and
    /// authenticated now, then kept).
    func item(_ id: VaultItem.ID) throws -> VaultItem? {
        try recoveringFromDamagedIndex { try indexedItem(id) }
    }

    private func indexedItem(_ id: VaultItem.ID) throws -> VaultItem? {
        if let item = log.items[id] { return item }
        if log.deleted.contains(id) { return nil }
        guard let index else { return nil }
        if let item = loaded[id] { return item }
        for entry in try index.entries(withPrefix: try codec.indexKey(id)) {
            let item = try readItem(at: entry)
            if item.id == id { return item }
        }
        return nil
    }

    /// Every live item of `service` (all of them when `service` is nil), in no order.
    func items(service: String?) throws -> [VaultItem] {
        var result: [VaultItem] = []
        try forEachItem(service: service) { result.append($0) }
        return result
    }

    /// Hands every live item of `service` (all of them when `service` is nil) to `body`, in no
    /// order: the records after the index from memory, then the records the index names in
    /// file order, read through one window of the file (`IndexedRecordReader`) and not kept.
    func forEachItem(service: String?, _ body: (VaultItem) throws -> Void) throws {
        let entries = try recoveringFromDamagedIndex { try listedEntries(service: service) }
        for item in log.items.values where service == nil || item.service == service { try body(item) }
        try forEachIndexed(entries, service: service) { try body($0.item) }
    }

    /// `forEachItem(service:_:)` handing over views of the records (`VaultItemView`), each made
    /// from the decrypted record where it lies and valid for the call only: what a listing of
    /// a long history reads, with no item built a record.
    func forEachItemView(service: String?, _ body: (VaultItemView) throws -> Void) throws {
        let entries = try recoveringFromDamagedIndex { try listedEntries(service: service) }
        try forEachReplayed(service: service, body)
        try forEachIndexed(entries, service: service, body)
    }

    /// `forEachItemView(service:_:)` for a listing that needs only what `derive` derives from
    /// each item (appending it to the buffer it is handed): `body` gets those bytes. The items
    /// the index names are taken from the derivation's cache (`DerivedCache`) where it has
    /// them for their records, read and derived otherwise; when many were derived, the cache
    /// is written anew (best effort, never in a read-only vault).
    func forEachDerived(
        service: String, derivation: VaultDerivation, derive: (VaultItemView, inout [UInt8]) throws -> Void,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let entries = try recoveringFromDamagedIndex { try listedEntries(service: service) }
        var derived: [UInt8] = []
        try forEachReplayed(service: service) { view in
            derived.removeAll(keepingCapacity: true)
            try derive(view, &derived)
            try derived.withUnsafeBytes(body)
        }
        guard let index, !entries.isEmpty else { return }
        let (file, fs, path, headerEnd, fileID) = (file, fs, path, headerEnd, header.fileID)
        let cachePath = DerivedCache.path(path, derivation)
        let cache = DerivedCache.open(
            cachePath, derivation: derivation, codec: codec, fs: fs, headerEnd: headerEnd, validEnd: log.validEnd,
            chain: { end in end == headerEnd ? fileID : try Self.read(file, from: end - 16, to: end, fs: fs, path: path)
            })
        // Entries are in file order: those from the first past the cache's end are new to it.
        var uncovered = 0
        for position in entries.indices where entries[position].offset >= cache?.coveredEnd ?? 0 { uncovered += 1 }
        let rewrites = !configuration.readOnly && failure == nil && uncovered > 0 && uncovered * 16 >= entries.count
        var builder = rewrites ? DerivedCache.Builder(capacity: entries.count * 64) : nil
        let reader = IndexedRecordReader(
            file: file, fs: fs, codec: codec, path: path, headerEnd: headerEnd, end: log.validEnd,
            windowSize: IndexedRecordReader.listingWindow)
        let known = (service, try codec.serviceTag(service))
        var next = 0
        // By index: each entry is read where it lies, not copied out (retaining its key).
        for position in entries.indices {
            if let cache, entries[position].offset < cache.coveredEnd {
                while next < cache.count, cache.offset(next) < entries[position].offset { next += 1 }
                let kept =
                    try next < cache.count
                    && cache.withEntry(next, naming: entries[position]) { kept, encoded in
                        try body(kept)
                        builder?.append(encoded: encoded)
                    }
                if kept { continue }
            }
            derived.removeAll(keepingCapacity: true)
            let listed = try reader.withItem(at: entries[position], known: known) { view in
                guard view.isService(service) else { return false }
                try derive(view, &derived)
                return true
            }
            guard listed else { continue }
            try derived.withUnsafeBytes { derived in
                try body(derived)
                builder?.append(entries[position], derived: derived)
            }
        }
        if let builder {
            try? DerivedCache.write(
                builder, to: cachePath, derivation: derivation, coveredEnd: index.coveredEnd, chain: index.chain,
                codec: codec,
                fs: fs, temporarySuffix: Self.temporarySuffix())
        }
    }

    /// Hands `body` a view of each item of `service` (all when nil) that the records replayed
    /// after the index hold (in memory).
    private func forEachReplayed(service: String?, _ body: (VaultItemView) throws -> Void) throws {
        for item in log.items.values where service == nil || item.service == service {
            let payload = RecordPayload.put(item).encoded()
            try payload.withUnsafeBytes { bytes in
                guard case .put(let view) = PayloadLayout.parse(bytes) else {
                    throw VaultError.invalidItem(item.id, reason: "it does not fit the record format")
                }
                try body(view)
            }
        }
    }

    /// The records `entries` name, read in file order through one window and authenticated.
    private func forEachIndexed(
        _ entries: [VaultIndex.Entry], service: String?, _ body: (VaultItemView) throws -> Void
    ) throws {
        guard !entries.isEmpty else { return }
        let reader = IndexedRecordReader(
            file: file, fs: fs, codec: codec, path: path, headerEnd: headerEnd, end: log.validEnd,
            windowSize: IndexedRecordReader.listingWindow)
        let known = try service.map { ($0, try codec.serviceTag($0)) }
        // By index: each entry is read where it lies, not copied out (retaining its key).
        for index in entries.indices {
            try reader.withItem(at: entries[index], known: known) { view in
                if service.map(view.isService) ?? true { try body(view) }
            }
        }
    }

    /// The index's entries for `service` (all when nil) that no record after the index
    /// replaced, in file order.
    private func listedEntries(service: String?) throws -> [VaultIndex.Entry] {
        guard let index else { return [] }
        let overridden = try Set((Array(log.items.keys) + Array(log.deleted)).map { try codec.indexKey($0) })
        let entries = try service.map { try index.entries(withPrefix: try codec.serviceTag($0)) } ?? index.allEntries()
        return entries.filter { !overridden.contains($0.key) }.sorted { $0.offset < $1.offset }
    }

    /// Reads and authenticates the record an index entry names (`IndexedRecordReader`), and
    /// keeps the item.
    private func readItem(at entry: VaultIndex.Entry) throws -> VaultItem {
        let reader = IndexedRecordReader(
            file: file, fs: fs, codec: codec, path: path, headerEnd: headerEnd, end: log.validEnd,
            windowSize: IndexedRecordReader.itemWindow)
        let item = try reader.item(at: entry)
        loaded[item.id] = item
        return item
    }

    // MARK: - Reading the log

    /// Catches up with what other processes wrote: the new tail of the same file, or the
    /// whole file when it was replaced (compaction, key change). With `forWriting` (lock
    /// held) a torn tail is cut off so the next record follows the last good one.
    func refresh(forWriting: Bool) throws {
        if let failure { throw VaultError.handleUnusable(path: path, cause: failure) }
        let current: FileStatus?
        do { current = try fs.status(atPath: path, followingLinks: false) } catch {
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        }
        guard let current else {
            throw VaultError.io(
                path: path, operation: "lstat (the vault was removed)", errno: Errno.noSuchFile.rawValue)
        }
        if current.isSymbolicLink { throw VaultError.symbolicLink(path: path) }
        // The same file's size, read once: with the lock held (`forWriting`) nobody else
        // writes, so the size the tail was read to is the size a torn tail is cut from. The
        // path still naming our file (same device and inode), its `lstat` is our file's
        // `fstat`: one system call a write, not two.
        let size: UInt64?
        if (current.device, current.inode) != identity {
            try reload()
            size = nil
        } else {
            let current = current.size
            if current < log.validEnd {
                throw VaultError.integrity(
                    path: path, offset: current, detail: "the file shrank below its last verified record")
            }
            if current > log.validEnd { try consume(from: log.validEnd, to: current) }
            size = current
        }
        if forWriting {
            let size = try size ?? files.status(file).size
            if size > log.validEnd {
                do {
                    try fs.truncate(file, to: log.validEnd)
                    try fs.synchronize(file, .data)
                } catch {
                    throw VaultError.notDurable(path: path, operation: error.operation, errno: error.code)
                }
            }
        }
    }

    private func consume(from start: UInt64, to end: UInt64) throws {
        let tail = try Self.read(file, from: start, to: end, fs: fs, path: path)
        let (index, codec) = (self.index, self.codec)
        do {
            try log.consume(
                tail[...], at: start, codec: codec, path: path,
                baseHolds: { id in try index.map { try Self.holds($0, id, codec: codec) } ?? false })
        } catch is VaultIndex.Damaged {
            try readWholeLog()
        }
    }

    /// Re-reads a file that replaced ours. The data key is the same (it never changes), so
    /// a replacement that is not this vault fails authentication like any other damage.
    private func reload() throws {
        let newFile = try files.openExisting(path)
        do {
            let status = try files.status(newFile)
            let head = try Self.read(
                newFile, from: 0, to: min(status.size, UInt64(VaultFormat.maxHeaderLength)), fs: fs, path: path)
            let (newHeader, _) = try VaultHeader.parse(head[...], path: path)
            let opened = try Self.readLog(
                newFile, status: status, header: newHeader, dataKey: dataKey, configuration: configuration, path: path)
            fs.close(file)
            (file, identity, header, codec, log, index) = (
                newFile, opened.identity, opened.header, opened.codec, opened.log, opened.index
            )
            loaded = [:]
        } catch let error as SystemCallError {
            fs.close(newFile)
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        } catch {
            fs.close(newFile)
            throw error
        }
    }

    // MARK: - Writing

    /// Runs `body` holding the cross-process lock (without it when read-only and there is
    /// no lock file: then no writer ever ran).
    func withLock<R>(_ body: () throws -> R) throws -> R {
        guard let lockFile else { return try body() }
        return try Self.withLock(lockFile, fs, path, body)
    }

    static func withLock<R>(
        _ lockFile: OpenFile, _ fs: any FileSystem, _ path: String, _ body: () throws -> R
    ) throws -> R {
        do { _ = try fs.lock(lockFile, waiting: true) } catch {
            throw VaultError.io(path: path + ".lock", operation: error.operation, errno: error.code)
        }
        defer { fs.unlock(lockFile) }
        return try body()
    }

    /// Whether enough superseded records piled up to make compaction worth its O(items) cost.
    var needsCompaction: Bool {
        let garbage = log.recordCount - log.liveCount
        return garbage > max(log.liveCount, configuration.compactionMinimumGarbage)
    }

    /// Appends records (one `pwrite`) and makes them durable (one `fdatasync`); memory is
    /// updated only after the sync succeeded. Call with the lock held, after `refresh`.
    /// - Parameter atomic: the records form one atomic write, opened by a batch marker: a
    ///   crash keeps all of them or none.
    func append(_ records: [RecordPayload], atomic: Bool = false) throws {
        if let failure { throw VaultError.handleUnusable(path: path, cause: failure) }
        guard !records.isEmpty else { return }
        let payloads =
            atomic && records.count > 1 ? [RecordPayload.batchMarker(count: records.count)] + records : records
        var sealed: [(payload: RecordPayload, chain: [UInt8], length: Int)] = []
        var bytes: [UInt8] = []
        var chain = log.chain
        for (index, payload) in payloads.enumerated() {
            let (frame, newChain) = try codec.seal(payload, sequence: log.nextSequence + UInt64(index), chain: chain)
            if bytes.isEmpty { bytes = frame } else { bytes += frame }
            chain = newChain
            sealed.append((payload, newChain, frame.count))
        }
        let validEnd = log.validEnd
        do {
            if let hook = configuration.faultHook {
                let half = bytes.count / 2
                try fs.write(file, bytes[..<half], at: validEnd)
                hook(.midVaultWrite)
                try fs.write(file, bytes[half...], at: validEnd + UInt64(half))
            } else {
                try fs.write(file, bytes[...], at: validEnd)
            }
            try fs.synchronize(file, .data)
        } catch {
            // The records may or may not be on disk; they were not acknowledged. Cut them off
            // (best effort) and stop this handle: a retried fsync could report a success
            // that never reached the disk.
            try? fs.truncate(file, to: validEnd)
            failure = "\(error.operation) failed with errno \(error.code)"
            throw VaultError.notDurable(path: path, operation: error.operation, errno: error.code)
        }
        let (index, codec) = (self.index, self.codec)
        do {
            for record in sealed {
                try log.apply(
                    record.payload, chain: record.chain, length: record.length,
                    baseHolds: { id in try index.map { try Self.holds($0, id, codec: codec) } ?? false })
            }
        } catch is VaultIndex.Damaged {
            // The records are durable; the whole log, read again, holds them.
            try readWholeLog()
        }
        if log.tailRecords >= configuration.indexTailRecords { writeIndexIfWorthwhile() }
    }

    // MARK: - The index

    /// Writes an index covering the log as this handle has it, when the vault is large enough
    /// for reading it whole to matter, and continues from it. Best effort: the index is a
    /// cache, and a failure to write it changes nothing.
    func writeIndexIfWorthwhile() {
        guard !configuration.readOnly, log.recordCount >= configuration.indexMinimumRecords, failure == nil else {
            return
        }
        guard let entries = try? liveEntries() else { return }
        let snapshot = VaultIndex.Snapshot(
            fileID: header.fileID, coveredEnd: log.validEnd, nextSequence: log.nextSequence, chain: log.chain,
            recordCount: log.recordCount, entries: entries)
        guard
            (try? VaultIndex.write(
                snapshot, to: indexPath, codec: codec, fs: fs, temporarySuffix: Self.temporarySuffix())) != nil,
            let written = VaultIndex.open(indexPath, fileID: header.fileID, codec: codec, fs: fs),
            written.coveredEnd == log.validEnd
        else { return }
        for (id, item) in log.items { loaded[id] = item }
        index = written
        log = LogState(index: written)
    }

    /// Every live item's index entry, sorted by key: the index's, overlaid with the records
    /// replayed after it.
    private func liveEntries() throws -> [VaultIndex.Entry] {
        var byKey: [[UInt8]: VaultIndex.Entry] = [:]
        for entry in try index?.allEntries() ?? [] { byKey[entry.key] = entry }
        for id in log.deleted { byKey[try codec.indexKey(id)] = nil }
        for (id, location) in log.locations {
            let key = try codec.indexKey(id)
            byKey[key] = VaultIndex.Entry(key: key, offset: location.offset, sequence: location.sequence)
        }
        return byKey.values.sorted(by: <)
    }

    /// A name for this process's temporary files that no other process uses at once.
    static func temporarySuffix() -> String {
        "\(CurrentProcess.identifier)-\((try? SecureRandom.bytes(count: 6))?.map { String($0, radix: 16) }.joined() ?? "0")"
    }

    // MARK: - Replacing the file

    /// Rewrites the live items into a new file with a new file id (fresh record key), then
    /// renames it over the vault. Call with the lock held, after `refresh`.
    func compact() throws {
        if let failure { throw VaultError.handleUnusable(path: path, cause: failure) }
        let live = try items(service: nil)
        var newHeader = header
        newHeader.fileID = try SecureRandom.bytes(count: 16)
        let newCodec = try RecordCodec(cipher: newHeader.cipher, fileID: newHeader.fileID, dataKey: dataKey)
        var bytes = newHeader.encoded()
        var newLog = LogState(headerEnd: UInt64(bytes.count), codec: newCodec)
        for item in live.sorted(by: { $0.id < $1.id }) {
            let sealed = try newCodec.seal(.put(item), sequence: newLog.nextSequence, chain: newLog.chain)
            bytes += sealed.frame
            try newLog.apply(.put(item), chain: sealed.chain, length: sealed.frame.count, baseHolds: { _ in false })
        }
        // The new file's index goes first, so readers that follow the rename find it.
        var newIndexEntries: [VaultIndex.Entry] = []
        if live.count >= configuration.indexMinimumRecords {
            newIndexEntries = try newLog.locations.map { id, location in
                VaultIndex.Entry(key: try newCodec.indexKey(id), offset: location.offset, sequence: location.sequence)
            }.sorted(by: <)
            try? VaultIndex.write(
                VaultIndex.Snapshot(
                    fileID: newHeader.fileID, coveredEnd: newLog.validEnd, nextSequence: newLog.nextSequence,
                    chain: newLog.chain, recordCount: newLog.recordCount, entries: newIndexEntries),
                to: indexPath, codec: newCodec, fs: fs, temporarySuffix: Self.temporarySuffix())
        }
        let newFile = try Self.replace(
            path: path, with: bytes, files: files, configuration: configuration, fault: .midCompaction)
        adopt(newFile)
        header = newHeader
        codec = newCodec
        loaded = [:]
        if !newIndexEntries.isEmpty,
            let written = VaultIndex.open(indexPath, fileID: newHeader.fileID, codec: newCodec, fs: fs),
            written.coveredEnd == newLog.validEnd
        {
            for (id, item) in newLog.items { loaded[id] = item }
            index = written
            log = LogState(index: written)
        } else {
            index = nil
            log = newLog
        }
    }

    /// Re-wraps the data key for `key` and rewrites the header; the records are copied byte
    /// for byte (so the index stays valid). Call with the lock held, after `refresh`.
    func changeKey(to key: VaultKey) throws {
        if let failure { throw VaultError.handleUnusable(path: path, cause: failure) }
        var newHeader = header
        try Self.wrap(dataKey, into: &newHeader, key: key, configuration: configuration, files: files, path: path)
        let records = try Self.read(file, from: headerEnd, to: log.validEnd, fs: fs, path: path)
        let newFile = try Self.replace(
            path: path, with: newHeader.encoded() + records, files: files, configuration: configuration,
            fault: .midKeyChange)
        adopt(newFile)
        header = newHeader
    }

    /// Switches to the file just renamed into place. If its identity cannot be read, the next
    /// `refresh` sees a mismatch and re-reads the file from the path.
    private func adopt(_ newFile: OpenFile) {
        fs.close(file)
        file = newFile
        identity = (try? fs.status(of: newFile)).map { ($0.device, $0.inode) } ?? (0, 0)
    }
}
