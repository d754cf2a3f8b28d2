import Crypto
import Foundation

/// Downloads, verifies and installs hosted content, as `SKPaymentQueue` does for `SKDownload`s.
///
/// The engine starts a download by itself for every purchased or restored product with
/// content; the transaction is finished with the store only once its content is installed.
/// Bytes stream in chunks to `Downloads/partial/ID/` (memory stays flat however large the
/// content); every `checkpointBytes` the partial file is fsynced and its offset and the
/// SHA-256 of the stretch are recorded durably, so a download interrupted by the death of the
/// process resumes from its last checkpoint after proving the partial bytes intact. Each file
/// is checked against the manifest's SHA-256, and the whole content is installed atomically
/// by one `rename` into `Content/PRODUCT_ID/VERSION/`.
public actor DownloadManager {
    private enum Outcome {
        case completed
        case stopped(DownloadState)
    }

    private let configuration: DownloadConfiguration
    private let backend: any StoreBackend
    private let broadcaster: EventBroadcaster
    private let faultHook: FaultHook
    private let fs: any DownloadFileSystem
    private let clock: any StoreClock

    private var loaded = false
    private var records: [String: DownloadRecord] = [:]
    private var running: [String: Task<Void, Never>] = [:]
    private var stopRequests: [String: DownloadState] = [:]
    private var waiters: [String: [CheckedContinuation<Download, Never>]] = [:]
    private var meters: [String: RateMeter] = [:]
    private var lastReported: [String: Int64] = [:]
    private var nextSequence = 0
    /// Downloads asked for by `resume` (all are, when downloads start automatically).
    private var requested: Set<String> = []
    /// The lock files held while downloads run.
    private var leases: [String: OpenFile?] = [:]
    /// Set by `simulateProcessDeath()`: nothing is written any more.
    private var dead = false

    init(
        configuration: DownloadConfiguration, backend: any StoreBackend, broadcaster: EventBroadcaster,
        clock: any StoreClock, faultHook: @escaping FaultHook
    ) {
        self.clock = clock
        self.configuration = configuration
        self.backend = backend
        self.broadcaster = broadcaster
        self.faultHook = faultHook
        self.fs = configuration.fileSystem
    }

    // MARK: - Paths

    private var downloadsRoot: String { configuration.dataDirectory.appendingPathComponent("Downloads").path }
    private var recordsDirectory: String { downloadsRoot + "/records" }
    private func recordPath(_ id: String) -> String { recordsDirectory + "/" + id + ".json" }
    private func partialDirectory(_ id: String) -> String { downloadsRoot + "/partial/" + id }
    private var locksDirectory: String { downloadsRoot + "/locks" }
    private func lockPath(_ id: String) -> String { locksDirectory + "/" + id + ".lock" }
    private var controlDirectory: String { downloadsRoot + "/control" }
    private func controlPath(_ id: String) -> String { controlDirectory + "/" + id }
    private var contentRoot: String { configuration.dataDirectory.appendingPathComponent("Content").path }
    private func installedDirectory(_ manifest: ContentManifest) -> String {
        contentRoot + "/" + manifest.productID + "/" + manifest.version
    }

    // MARK: - Public API

    /// Every download this data directory knows, oldest first.
    public func downloads() -> [Download] {
        loadIfNeeded()
        return records.values.sorted { $0.sequence < $1.sequence }.map(\.download)
    }

    /// The download `id` (a transaction identifier), if known.
    public func download(id: String) -> Download? {
        loadIfNeeded()
        return records[id]?.download
    }

    /// Where `productID`'s content is installed (the newest version), if it is.
    public func installedContent(productID: String) -> URL? {
        loadIfNeeded()
        let finished = records.values
            .filter { $0.download.productID == productID && $0.download.state == .finished }
            .sorted { $0.sequence < $1.sequence }
        for record in finished.reversed() where fs.exists(installedDirectory(record.manifest)) {
            return URL(fileURLWithPath: installedDirectory(record.manifest))
        }
        return nil
    }

    /// Pauses a waiting or active download at its next chunk; its bytes stay for `resume`.
    /// A download running in another process is asked to pause (through a control file) and
    /// this waits, up to about ten seconds of the clock, until it has.
    /// - Returns: the download as it is now.
    /// - Throws: `DownloadError.unknownDownload`, or a file error.
    @discardableResult
    public func pause(_ id: String) async throws(DownloadError) -> Download {
        try await stop(id, as: .paused)
    }

    /// Cancels a download and deletes its partial bytes; the transaction stays unfinished
    /// (retryable with `resume` or `retryDownloads`). Works across processes like `pause`.
    /// - Returns: the download as it is now.
    /// - Throws: `DownloadError.unknownDownload`, or a file error.
    @discardableResult
    public func cancel(_ id: String) async throws(DownloadError) -> Download {
        try await stop(id, as: .cancelled)
    }

    /// Starts or resumes a waiting, paused, failed or cancelled download (from its last
    /// durable offset), also when the configuration does not start downloads automatically.
    /// - Throws: `DownloadError.unknownDownload`.
    public func resume(_ id: String) throws(DownloadError) {
        loadIfNeeded()
        reload(id)
        guard var record = records[id] else { throw .unknownDownload(id) }
        stopRequests[id] = nil
        requested.insert(id)
        guard running[id] == nil, record.download.state != .finished else { return }
        // Another process downloading it keeps it; its state is theirs to write.
        if let held = try? fs.tryLock(lockPath(id)) { fs.unlock(held) } else if fs.exists(lockPath(id)) { return }
        removeControl(id)
        record.download.state = .waiting
        record.download.error = nil
        try commit(record)
        broadcaster.send(.downloadUpdated(record.download))
        schedule()
    }

    private func stop(_ id: String, as target: DownloadState) async throws(DownloadError) -> Download {
        loadIfNeeded()
        guard records[id] != nil else { throw .unknownDownload(id) }
        if running[id] != nil {
            stopRequests[id] = target
            running[id]?.cancel()
            return records[id]?.download ?? Download(id: id, transactionID: id, productID: "", contentVersion: "", state: target, bytesWritten: 0, totalBytes: 0)
        }
        let lease = try translate { () throws(FileSystemError) -> OpenFile? in
            try fs.createDirectory(locksDirectory)
            return try fs.tryLock(lockPath(id))
        }
        if let lease {
            defer { fs.unlock(lease) }
            removeControl(id)
            reload(id)
            guard let record = records[id] else { throw .unknownDownload(id) }
            let state = record.download.state
            if target == .paused, state == .waiting || state == .active {
                var paused = record
                paused.download.state = .paused
                paused.download.bytesPerSecond = 0
                try commit(paused)
                broadcaster.send(.downloadPaused(paused.download))
                settle(paused.download)
            } else if target == .cancelled, state != .finished, state != .cancelled {
                try markCancelled(record)
            }
        } else {
            // Another process is downloading it: ask it to stop at its next chunk.
            try translate { () throws(FileSystemError) in
                try fs.createDirectory(controlDirectory)
                try fs.writeAtomically(controlPath(id), Array(target.rawValue.utf8), syncsDirectory: false)
            }
            for _ in 0..<200 {
                try? await clock.sleep(for: .milliseconds(50))
                reload(id)
                guard let state = records[id]?.download.state else { break }
                if state == target || state == .finished || (state == .failed && target == .paused) { break }
            }
        }
        return records[id]?.download ?? Download(id: id, transactionID: id, productID: "", contentVersion: "", state: target, bytesWritten: 0, totalBytes: 0)
    }

    /// Re-reads a download's record from disk (another process may have changed it), unless
    /// this process is running it.
    private func reload(_ id: String) {
        guard running[id] == nil, let record = readRecord(recordPath(id)), record.download.id == id else { return }
        records[id] = record
    }

    private func readControl(_ id: String) -> DownloadState? {
        guard fs.exists(controlPath(id)), let bytes = try? fs.readSmallFile(controlPath(id)) else { return nil }
        let state = DownloadState(rawValue: String(decoding: bytes, as: UTF8.self))
        return state == .paused || state == .cancelled ? state : nil
    }

    private func removeControl(_ id: String) {
        try? fs.remove(controlPath(id))
    }

    /// Starts again every failed or cancelled download, and resumes every interrupted one.
    public func retryDownloads() {
        loadIfNeeded()
        for record in records.values where [.failed, .cancelled, .active, .waiting].contains(record.download.state) {
            try? resume(record.download.id)
        }
    }

    /// Waits until download `id` is finished, failed, cancelled or paused, and returns it; at
    /// once when this process is not going to run it (for example another process is).
    /// - Throws: `DownloadError.unknownDownload`.
    public func waitUntilSettled(_ id: String) async throws(DownloadError) -> Download {
        loadIfNeeded()
        guard let record = records[id] else { throw .unknownDownload(id) }
        let scheduled = record.download.state == .waiting && (configuration.startsAutomatically || requested.contains(id))
        if running[id] == nil, !scheduled {
            return record.download
        }
        return await withCheckedContinuation { waiters[id, default: []].append($0) }
    }

    // MARK: - From the engine

    /// Starts (or continues) the content download of a delivered transaction. Returns true
    /// when the transaction has content that is not installed yet: the engine then leaves
    /// finishing it to the download (done when `finishesTransaction`).
    func startDownloads(for transaction: Transaction, finishesTransaction: Bool) async -> Bool {
        loadIfNeeded()
        let id = transaction.transactionID
        if var record = records[id] {
            switch record.download.state {
            case .finished:
                return false
            case .failed:
                record.finishesTransaction = finishesTransaction
                records[id] = record
                // Retried by itself on the next start, unless downloads wait to be asked for.
                if configuration.startsAutomatically { try? resume(id) }
            case .waiting, .active:
                record.finishesTransaction = finishesTransaction
                records[id] = record
                schedule()
            default:
                // Paused or cancelled: it waits for `resume` or `retryDownloads`.
                break
            }
            return true
        }

        let found: (manifest: ContentManifest, source: DownloadSource)?
        do {
            found = try await manifest(for: transaction.productID)
        } catch {
            // The source cannot say now: a failed download without a manifest yet, listed and
            // retryable; the transaction stays unfinished.
            nextSequence += 1
            let record = DownloadRecord(
                download: Download(
                    id: id, transactionID: id, productID: transaction.productID, contentVersion: "",
                    state: .failed, bytesWritten: 0, totalBytes: 0, error: error),
                manifest: ContentManifest(productID: transaction.productID, version: "", files: []),
                finishesTransaction: finishesTransaction, source: .unknown, sequence: nextSequence, needsManifest: true)
            records[id] = record
            try? commit(record)
            broadcaster.send(.downloadFailed(record.download))
            return true
        }
        guard let (manifest, source) = found else { return false }
        nextSequence += 1
        var record = DownloadRecord(
            download: Download(
                id: id, transactionID: id, productID: transaction.productID, contentVersion: manifest.version,
                state: .waiting, bytesWritten: 0, totalBytes: manifest.totalBytes),
            manifest: manifest, finishesTransaction: finishesTransaction, source: source, sequence: nextSequence)
        if let problem = manifest.problem ?? Self.productIDProblem(manifest.productID) {
            record.download.state = .failed
            record.download.error = .invalidManifest(problem)
            records[id] = record
            try? commit(record)
            broadcaster.send(.downloadFailed(record.download))
            return true
        }
        if isInstalled(manifest) {
            record.download.state = .finished
            record.download.bytesWritten = record.download.totalBytes
            record.download.contentPath = installedDirectory(manifest)
            records[id] = record
            try? commit(record)
            broadcaster.send(.downloadFinished(record.download))
            return false
        }
        records[id] = record
        do {
            try commit(record)
        } catch {
            record.download.state = .failed
            record.download.error = error
            records[id] = record
            broadcaster.send(.downloadFailed(record.download))
            return true
        }
        broadcaster.send(.downloadUpdated(record.download))
        schedule()
        return true
    }

    private func manifest(for productID: String) async throws(DownloadError) -> (ContentManifest, DownloadSource)? {
        if let hosted = try await HostedContentDownloader(backend: backend).manifest(forProductID: productID) {
            return (hosted, .store)
        }
        if let own = configuration.contentDownloader, let manifest = try await own.manifest(forProductID: productID) {
            return (manifest, .selfHosted)
        }
        return nil
    }

    /// Asks again for the manifest a failed first attempt could not get.
    private func fetchManifest(_ record: inout DownloadRecord) async throws(DownloadError) {
        let productID = record.download.productID
        guard let (manifest, source) = try await self.manifest(for: productID) else { throw .noContent(productID: productID) }
        if let problem = manifest.problem ?? Self.productIDProblem(manifest.productID) { throw .invalidManifest(problem) }
        let old = record.download
        record.manifest = manifest
        record.source = source
        record.needsManifest = nil
        record.download = Download(
            id: old.id, transactionID: old.transactionID, productID: productID, contentVersion: manifest.version,
            state: .active, bytesWritten: 0, totalBytes: manifest.totalBytes)
    }

    private func contentSource(_ record: DownloadRecord) -> any ContentDownloader {
        if record.source == .selfHosted, let own = configuration.contentDownloader { return own }
        return HostedContentDownloader(backend: backend)
    }

    static func productIDProblem(_ productID: String) -> String? {
        if productID.isEmpty || productID.hasPrefix(".") || productID.contains("/") || productID.utf8.contains(0) {
            return "the product identifier \"\(productID)\" is not usable as a directory name"
        }
        return nil
    }

    private func isInstalled(_ manifest: ContentManifest) -> Bool {
        let root = installedDirectory(manifest)
        return fs.exists(root) && manifest.files.allSatisfy { fs.fileSize(root + "/" + $0.path) == $0.size }
    }

    // MARK: - Scheduling

    private func schedule() {
        let waiting = records.values
            .filter { $0.download.state == .waiting && running[$0.download.id] == nil }
            .filter { configuration.startsAutomatically || requested.contains($0.download.id) }
            .sorted { $0.sequence < $1.sequence }
        for record in waiting where running.count < configuration.maxConcurrentDownloads {
            let id = record.download.id
            running[id] = Task { await self.run(id) }
        }
    }

    private func run(_ id: String) async {
        // One process downloads a given download at a time; the kernel drops the lease if it dies.
        var lease: OpenFile?
        do {
            try fs.createDirectory(locksDirectory)
            lease = try fs.tryLock(lockPath(id))
            if lease == nil {
                // Another process is downloading it.
                running[id] = nil
                requested.remove(id)
                reload(id)
                if let download = records[id]?.download { settle(download) }
                return
            }
        } catch {
            // No lease (an unwritable directory): the download reports the real error.
            lease = nil
        }
        leases[id] = lease
        defer {
            if let lease = leases.removeValue(forKey: id) ?? nil { fs.unlock(lease) }
        }
        reload(id)
        guard var record = records[id] else { return }
        record.download.state = .active
        record.download.error = nil
        meters[id] = RateMeter()
        lastReported[id] = nil
        do {
            if record.needsManifest == true { try await fetchManifest(&record) }
            try commit(record)
            broadcaster.send(.downloadUpdated(record.download))
            let source = contentSource(record)
            var outcome = Outcome.completed
            while record.fileIndex < record.manifest.files.count {
                outcome = try await downloadFile(&record, from: source)
                if case .stopped = outcome { break }
            }
            switch outcome {
            case .completed:
                try install(&record)
                records[id] = record
                broadcaster.send(.downloadFinished(record.download))
                if record.finishesTransaction {
                    // Another process may have finished it first; that is the same outcome.
                    try? await backend.finish(transactionID: record.download.transactionID)
                }
            case .stopped(let state) where state == .cancelled:
                try markCancelled(record)
            case .stopped:
                record.download.state = .paused
                record.download.bytesPerSecond = 0
                try commit(record)
                broadcaster.send(.downloadPaused(record.download))
            }
        } catch {
            record.download.state = .failed
            record.download.error = error
            record.download.bytesPerSecond = 0
            records[id] = record
            // The failure itself may be the disk; the record in memory still says failed.
            try? commit(record)
            broadcaster.send(.downloadFailed(record.download))
        }
        if stopRequests[id] != nil { removeControl(id) }
        running[id] = nil
        stopRequests[id] = nil
        settle(records[id]?.download ?? record.download)
        schedule()
    }

    private func settle(_ download: Download) {
        for waiter in waiters.removeValue(forKey: download.id) ?? [] { waiter.resume(returning: download) }
    }

    private func markCancelled(_ record: DownloadRecord) throws(DownloadError) {
        var record = record
        try translate { () throws(FileSystemError) in try fs.remove(partialDirectory(record.download.id)) }
        record.resetProgress()
        record.download.state = .cancelled
        try commit(record)
        broadcaster.send(.downloadCanceled(record.download))
        settle(record.download)
    }

    // MARK: - One file

    private func downloadFile(_ record: inout DownloadRecord, from source: any ContentDownloader) async throws(DownloadError) -> Outcome {
        let id = record.download.id
        let file = record.manifest.files[record.fileIndex]
        let path = partialDirectory(id) + "/" + file.path
        let handle = try translate { () throws(FileSystemError) -> OpenFile in
            try fs.createDirectory((path as NSString).deletingLastPathComponent)
            return try fs.open(path)
        }
        defer { fs.close(handle) }

        var whole = try Self.newDigest()
        var offset: Int64 = 0
        if record.durableOffset > 0 {
            if try verifyPrefix(handle, record.segments, into: &whole) {
                offset = record.durableOffset
            } else {
                // The partial file no longer holds what was made durable: download it again.
                whole = try Self.newDigest()
                record.segments = []
                record.durableOffset = 0
            }
        }
        try translate { () throws(FileSystemError) in try fs.truncate(handle, to: offset) }
        record.download.bytesWritten = record.completedBytes + offset
        records[id] = record

        var stretch = try Self.newDigest()
        var stretchLength: Int64 = 0
        do {
            for try await chunk in source.bytes(of: file, in: record.manifest, from: offset) {
                if stopRequests[id] == nil, let asked = readControl(id) { stopRequests[id] = asked }
                if stopRequests[id] != nil { break }
                let (end, overflow) = offset.addingReportingOverflow(Int64(chunk.count))
                guard !overflow, end <= file.size else {
                    throw DownloadError.sizeMismatch(file: file.path, expected: file.size, actual: overflow ? Int64.max : end)
                }
                try translate { () throws(FileSystemError) in try fs.write(handle, chunk) }
                try Self.update(&whole, chunk)
                try Self.update(&stretch, chunk)
                offset = end
                stretchLength += Int64(chunk.count)
                record.download.bytesWritten = record.completedBytes + offset
                if stretchLength >= configuration.checkpointBytes {
                    try checkpoint(&record, handle, offset, &stretch, &stretchLength)
                    faultHook(.midDownload)
                }
                report(&record)
            }
        } catch let error as DownloadError {
            if stopRequests[id] == nil { throw error }
        } catch {
            if stopRequests[id] == nil { throw .transferFailed("\(error)") }
        }

        if let stop = stopRequests[id] {
            if stop == .paused, stretchLength > 0 {
                try checkpoint(&record, handle, offset, &stretch, &stretchLength)
            }
            return .stopped(stop)
        }
        guard offset == file.size else {
            throw .transferFailed("\(file.path): the source ended after \(offset) of \(file.size) bytes")
        }
        let actual = try Self.finish(whole)
        guard actual == file.sha256 else {
            // Never keep bytes that failed verification: a retry starts this file afresh.
            try? fs.truncate(handle, to: 0)
            record.durableOffset = 0
            record.segments = []
            records[id] = record
            try? commit(record)
            throw .checksumMismatch(file: file.path, expected: file.sha256, actual: actual)
        }
        try translate { () throws(FileSystemError) in try fs.sync(handle) }
        record.fileIndex += 1
        record.completedBytes += file.size
        record.durableOffset = 0
        record.segments = []
        try commit(record)
        return .completed
    }

    private func checkpoint(
        _ record: inout DownloadRecord, _ handle: OpenFile, _ offset: Int64,
        _ stretch: inout Digest, _ stretchLength: inout Int64
    ) throws(DownloadError) {
        try translate { () throws(FileSystemError) in try fs.sync(handle) }
        let fresh = try Self.newDigest()
        let finished = stretch
        stretch = fresh
        record.segments.append(DownloadRecord.Segment(length: stretchLength, sha256: try Self.finish(finished)))
        record.durableOffset = offset
        stretchLength = 0
        try commit(record, checkpoint: true)
    }

    /// Re-reads the checkpointed stretches of a partial file and checks each one's SHA-256,
    /// feeding the bytes into `whole`. False when the file is short or any stretch differs.
    private func verifyPrefix(_ handle: OpenFile, _ segments: [DownloadRecord.Segment], into whole: inout Digest) throws(DownloadError) -> Bool {
        let length = try translate { () throws(FileSystemError) in try fs.length(handle) }
        let durable = segments.reduce(Int64(0)) { $0 + $1.length }
        guard length >= durable else { return false }
        var position: Int64 = 0
        let block = 1 << 16
        for segment in segments {
            var digest = try Self.newDigest()
            var left = segment.length
            while left > 0 {
                let count = Int(min(Int64(block), left))
                let bytes = try translate { () throws(FileSystemError) in try fs.read(handle, at: position, count: count) }
                guard bytes.count == count else { return false }
                try Self.update(&digest, bytes)
                try Self.update(&whole, bytes)
                position += Int64(count)
                left -= Int64(count)
            }
            guard try Self.finish(digest) == segment.sha256 else { return false }
        }
        return true
    }

    private func report(_ record: inout DownloadRecord) {
        let id = record.download.id
        let written = record.download.bytesWritten
        meters[id, default: RateMeter()].record(written, at: clock.now)
        record.download.bytesPerSecond = meters[id]?.bytesPerSecond ?? 0
        records[id] = record
        let step = max(Int64(1 << 16), record.download.totalBytes / 200)
        if let last = lastReported[id], written - last < step, written < record.download.totalBytes { return }
        lastReported[id] = written
        broadcaster.send(.downloadUpdated(record.download))
    }

    // MARK: - Installing

    private func install(_ record: inout DownloadRecord) throws(DownloadError) {
        let target = installedDirectory(record.manifest)
        let productDirectory = (target as NSString).deletingLastPathComponent
        let staged = partialDirectory(record.download.id)
        try translate { () throws(FileSystemError) in
            try fs.createDirectory(staged)
            try fs.syncDirectory(staged)
            try fs.createDirectory(productDirectory)
            try fs.syncDirectory((productDirectory as NSString).deletingLastPathComponent)
            if fs.exists(target) {
                // Same version installed by another download: swap it for this verified copy.
                let old = productDirectory + "/.replaced-" + record.download.id
                try fs.remove(old)
                try fs.rename(target, to: old)
                try fs.rename(staged, to: target)
                try fs.syncDirectory(productDirectory)
                try? fs.remove(old)
            } else {
                try fs.rename(staged, to: target)
                try fs.syncDirectory(productDirectory)
            }
        }
        record.download.state = .finished
        record.download.bytesWritten = record.download.totalBytes
        record.download.bytesPerSecond = 0
        record.download.contentPath = target
        try commit(record)
    }

    // MARK: - Records

    private func loadIfNeeded() {
        guard !loaded else { return }
        loaded = true
        for name in fs.contents(ofDirectory: recordsDirectory) where name.hasSuffix(".json") {
            guard var record = readRecord(recordsDirectory + "/" + name), record.download.id + ".json" == name else { continue }
            if record.download.state == .active, let free = try? fs.tryLock(lockPath(record.download.id)) {
                // Active in a process that died: it waits to be resumed from its last checkpoint.
                fs.unlock(free)
                record.download.state = .waiting
                record.download.bytesPerSecond = 0
            }
            records[record.download.id] = record
            nextSequence = max(nextSequence, record.sequence)
        }
    }

    private func readRecord(_ path: String) -> DownloadRecord? {
        guard let bytes = try? fs.readSmallFile(path),
              let record = try? JSONDecoder().decode(DownloadRecord.self, from: Data(bytes)),
              record.formatVersion == 1
        else { return nil }
        return record
    }

    /// For tests: behaves from now on as a process that died — leases are released (as the
    /// kernel does) and nothing more is written.
    func simulateProcessDeath() {
        dead = true
        for case let lease? in leases.values { fs.unlock(lease) }
        leases.removeAll()
    }

    private func commit(_ record: DownloadRecord, checkpoint: Bool = false) throws(DownloadError) {
        guard !dead else { throw .fileSystem(path: recordPath(record.download.id), reason: "the process is gone") }
        records[record.download.id] = record
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(record) else {
            throw .fileSystem(path: recordPath(record.download.id), reason: "the record could not be encoded")
        }
        try translate { () throws(FileSystemError) in
            try fs.createDirectory(recordsDirectory)
            // A checkpoint's rename need not survive a power loss: the previous record then
            // still describes bytes that are durable, and the download resumes from there.
            try fs.writeAtomically(recordPath(record.download.id), Array(data), syncsDirectory: !checkpoint)
        }
    }

    // MARK: - Helpers

    private func translate<T>(_ body: () throws(FileSystemError) -> T) throws(DownloadError) -> T {
        do {
            return try body()
        } catch {
            throw Self.downloadError(error)
        }
    }

    static func downloadError(_ error: FileSystemError) -> DownloadError {
        switch error.code {
        case ENOSPC, EDQUOT: .diskFull(path: error.path)
        case EACCES, EPERM, EROFS, ENOTDIR: .notWritable(path: error.path, reason: error.message)
        default: .fileSystem(path: error.path, reason: error.message)
        }
    }

    private static func newDigest() throws(DownloadError) -> Digest {
        do {
            return try Digest(.sha256)
        } catch {
            throw .transferFailed("SHA-256 is unavailable: \(error)")
        }
    }

    private static func update(_ digest: inout Digest, _ bytes: [UInt8]) throws(DownloadError) {
        do {
            try bytes.withUnsafeBytes { try digest.update($0) }
        } catch {
            throw .transferFailed("SHA-256 failed: \(error)")
        }
    }

    private static func finish(_ digest: consuming Digest) throws(DownloadError) -> String {
        do {
            return try digest.finalize().hexString
        } catch {
            throw .transferFailed("SHA-256 failed: \(error)")
        }
    }
}
