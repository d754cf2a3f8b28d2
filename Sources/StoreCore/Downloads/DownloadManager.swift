import Foundation
internal import SystemIO

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
///
/// This actor is the facade; `DownloadScheduler`, `ChunkTransfer`, `ContentInstaller`,
/// `DownloadRecordStore`, `ManifestSource` and `DownloadControlFiles` do the jobs.
public actor DownloadManager {
    enum Outcome {
        case completed
        case stopped(DownloadState)
    }

    let configuration: DownloadConfiguration
    private let backend: any StoreBackend
    private let broadcaster: EventBroadcaster
    let faultHook: FaultHook
    let fs: any FileSystem
    private let clock: any StoreClock
    let paths: DownloadPaths
    private let manifests: ManifestSource
    private let installer: ContentInstaller
    let control: DownloadControlFiles

    var records: DownloadRecordStore
    var scheduler: DownloadScheduler
    private var progress = DownloadProgress()

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
        let paths = DownloadPaths(dataDirectory: configuration.dataDirectory)
        self.paths = paths
        manifests = ManifestSource(backend: backend, contentDownloader: configuration.contentDownloader)
        installer = ContentInstaller(fs: configuration.fileSystem, paths: paths)
        control = DownloadControlFiles(fs: configuration.fileSystem, paths: paths)
        records = DownloadRecordStore(fileSystem: configuration.fileSystem, paths: paths)
        scheduler = DownloadScheduler(fileSystem: configuration.fileSystem, paths: paths, configuration: configuration)
    }

    // MARK: - Public API

    /// Every download this data directory knows, oldest first.
    public func downloads() -> [Download] {
        records.loadIfNeeded()
        return records.records.values.sorted { $0.sequence < $1.sequence }.map(\.download)
    }

    /// The download `id` (a transaction identifier), if known.
    public func download(id: String) -> Download? {
        records.loadIfNeeded()
        return records[records.downloadID(serving: id)]?.download
    }

    /// Where `productID`'s content is installed (the newest version), if it is.
    public func installedContent(productID: String) -> URL? {
        records.loadIfNeeded()
        let finished = records.records.values
            .filter { $0.download.productID == productID && $0.download.state == .finished }
            .sorted { $0.sequence < $1.sequence }
        for record in finished.reversed() {
            if let directory = installer.installedDirectory(ifPresent: record.manifest) {
                return URL(fileURLWithPath: directory)
            }
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
        records.loadIfNeeded()
        let id = records.downloadID(serving: id)
        reload(id)
        guard var record = records[id] else { throw .unknownDownload(id) }
        scheduler.request(id)
        guard !scheduler.isRunning(id), record.download.state != .finished else { return }
        // Another process downloading it keeps it; its state is theirs to write.
        if scheduler.isLeasedElsewhere(id) { return }
        control.clear(id)
        record.download.state = .waiting
        record.download.error = nil
        try records.commit(record)
        broadcaster.send(.downloadUpdated(record.download))
        schedule()
    }

    /// Starts again every failed or cancelled download, and resumes every interrupted one.
    public func retryDownloads() {
        records.loadIfNeeded()
        for record in records.records.values
        where [.failed, .cancelled, .active, .waiting].contains(record.download.state) {
            try? resume(record.download.id)
        }
    }

    /// Waits until download `id` is finished, failed, cancelled or paused, and returns it; at
    /// once when this process is not going to run it (for example another process is). When
    /// the waiting task is cancelled it returns at once with the download as it is then (still
    /// waiting or active); the download itself goes on.
    /// - Throws: `DownloadError.unknownDownload`.
    public func waitUntilSettled(_ id: String) async throws(DownloadError) -> Download {
        records.loadIfNeeded()
        let id = records.downloadID(serving: id)
        guard let record = records[id] else { throw .unknownDownload(id) }
        if Task.isCancelled || (!scheduler.isRunning(id) && !scheduler.isScheduled(record)) {
            return record.download
        }
        let token = scheduler.takeWaiterToken()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { scheduler.addWaiter(id, token: token, $0) }
        } onCancel: {
            // Runs after the waiter is added: the actor is busy adding it until it suspends.
            Task { await self.stopWaiting(id, token: token) }
        }
    }

    private func stopWaiting(_ id: String, token: Int) {
        let download = records[id]?.download ?? Download.placeholder(id, .waiting)
        scheduler.removeWaiter(id, token: token)?.resume(returning: download)
    }

    // MARK: - Stopping

    private func stop(_ id: String, as target: DownloadState) async throws(DownloadError) -> Download {
        records.loadIfNeeded()
        let id = records.downloadID(serving: id)
        guard records[id] != nil else { throw .unknownDownload(id) }
        if scheduler.isRunning(id) {
            scheduler.askToStop(id, as: target)
            return records[id]?.download ?? Download.placeholder(id, target)
        }
        let lease = try DownloadError.translating { () throws(SystemCallError) in try scheduler.tryLease(id) }
        if let lease {
            defer { scheduler.release(lease) }
            control.clear(id)
            reload(id)
            guard let record = records[id] else { throw .unknownDownload(id) }
            let state = record.download.state
            if target == .paused, state == .waiting || state == .active {
                var paused = record
                paused.download.state = .paused
                paused.download.bytesPerSecond = 0
                try records.commit(paused)
                broadcaster.send(.downloadPaused(paused.download))
                scheduler.settle(paused.download)
            } else if target == .cancelled, state != .finished, state != .cancelled {
                try markCancelled(record)
            }
        } else {
            // Another process is downloading it: ask it to stop at its next chunk.
            try control.request(target, for: id)
            for _ in 0..<200 {
                try? await clock.sleep(for: .milliseconds(50))
                reload(id)
                guard let state = records[id]?.download.state else { break }
                if state == target || state == .finished || (state == .failed && target == .paused) { break }
            }
        }
        return records[id]?.download ?? Download.placeholder(id, target)
    }

    /// Re-reads a download's record from disk (another process may have changed it), unless
    /// this process is running it.
    private func reload(_ id: String) {
        guard !scheduler.isRunning(id) else { return }
        records.reload(id)
    }

    private func markCancelled(_ record: DownloadRecord) throws(DownloadError) {
        var record = record
        try DownloadError.translating { () throws(SystemCallError) in
            try fs.removeTree(paths.partialDirectory(record.download.id))
        }
        record.resetProgress()
        record.download.state = .cancelled
        try records.commit(record)
        broadcaster.send(.downloadCanceled(record.download))
        scheduler.settle(record.download)
    }

    // MARK: - From the engine

    /// Starts (or continues) the content download of a delivered transaction. Returns true
    /// when the transaction has content that is not installed yet: the engine then leaves
    /// finishing it to the download (done when `finishesTransaction`).
    func startDownloads(for transaction: Transaction, finishesTransaction: Bool) async -> Bool {
        records.loadIfNeeded()
        let id = records.downloadID(serving: transaction.transactionID)
        if var record = records[id] {
            switch record.download.state {
            case .finished:
                return false
            case .failed:
                record.setFinishes(transaction.transactionID, finishesTransaction)
                records[id] = record
                // Retried by itself on the next start, unless downloads wait to be asked for.
                if configuration.startsAutomatically { try? resume(id) }
            case .waiting, .active:
                record.setFinishes(transaction.transactionID, finishesTransaction)
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
            found = try await manifests.manifest(for: transaction.productID)
        } catch {
            // The source cannot say now: a failed download without a manifest yet, listed and
            // retryable; the transaction stays unfinished.
            failBeforeStart(
                DownloadRecord.withoutManifest(
                    transaction, error: error, finishesTransaction: finishesTransaction,
                    sequence: records.takeSequence()))
            return true
        }
        guard let (manifest, source) = found else { return false }
        if var unfinished = records.records.values
            .filter({ $0.download.productID == transaction.productID && $0.manifest.version == manifest.version })
            .filter({ $0.download.state != .finished && $0.needsManifest != true })
            .max(by: { ($0.download.bytesWritten, $0.sequence) < ($1.download.bytesWritten, $1.sequence) })
        {
            // The same content is being downloaded for another transaction (this one is a
            // restore of it): join that download rather than start another from zero.
            unfinished.joined =
                (unfinished.joined ?? []) + [
                    .init(transactionID: transaction.transactionID, finishes: finishesTransaction)
                ]
            do {
                try records.commit(unfinished)
            } catch {
                return true
            }
            if unfinished.download.state == .failed, configuration.startsAutomatically {
                try? resume(unfinished.download.id)
            }
            schedule()
            return true
        }
        var record = DownloadRecord.new(
            transaction, manifest: manifest, source: source, finishesTransaction: finishesTransaction,
            sequence: records.takeSequence())
        if let problem = manifest.problem ?? ManifestSource.productIDProblem(manifest.productID) {
            record.download.state = .failed
            record.download.error = .invalidManifest(problem)
            failBeforeStart(record)
            return true
        }
        if installer.isInstalled(manifest) {
            record.download.state = .finished
            record.download.bytesWritten = record.download.totalBytes
            record.download.contentPath = paths.installedDirectory(manifest)
            records[id] = record
            try? records.commit(record)
            broadcaster.send(.downloadFinished(record.download))
            return false
        }
        records[id] = record
        do {
            try records.commit(record)
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

    /// Records and reports a download that failed before it could start.
    private func failBeforeStart(_ record: DownloadRecord) {
        records[record.download.id] = record
        try? records.commit(record)
        broadcaster.send(.downloadFailed(record.download))
    }

    /// For tests: behaves from now on as a process that died — leases are released (as the
    /// kernel does) and nothing more is written.
    func simulateProcessDeath() {
        records.isDead = true
        scheduler.releaseAllLeases()
    }

    // MARK: - Running one download

    private func schedule() {
        for id in scheduler.dueToStart(records.records) {
            scheduler.started(id, Task { await self.run(id) })
        }
    }

    private func run(_ id: String) async {
        // One process downloads a given download at a time; the kernel drops the lease if it dies.
        guard scheduler.claim(id) else {
            // Another process is downloading it.
            reload(id)
            if let download = records[id]?.download { scheduler.settle(download) }
            return
        }
        defer { scheduler.releaseLease(id) }
        reload(id)
        guard var record = records[id] else { return }
        record.download.state = .active
        record.download.error = nil
        progress.start(id)
        do throws(DownloadError) {
            if record.needsManifest == true { try await manifests.refetch(into: &record) }
            try records.commit(record)
            broadcaster.send(.downloadUpdated(record.download))
            let source = manifests.contentSource(for: record)
            var outcome = Outcome.completed
            var attempts = 0
            repeat {
                attempts += 1
                while record.fileIndex < record.manifest.files.count {
                    outcome = try await downloadFile(&record, from: source)
                    if case .stopped = outcome { break }
                }
                // Verified files a power cut took before they were durable (or an install the
                // record did not hear of) are found before anything is installed.
                guard case .completed = outcome, installer.staged(record) == .incomplete, attempts < 2 else { break }
                try DownloadError.translating { () throws(SystemCallError) in
                    try fs.removeTree(paths.partialDirectory(id))
                }
                record.resetProgress()
                try records.commit(record)
            } while true
            switch outcome {
            case .completed:
                guard installer.staged(record) != .incomplete else {
                    throw DownloadError.fileSystem(
                        path: paths.partialDirectory(id), reason: "the downloaded files are gone from the disk")
                }
                try installer.install(&record)
                try records.commit(record)
                broadcaster.send(.downloadFinished(record.download))
                // Another process may have finished them first; that is the same outcome.
                if record.finishesTransaction {
                    try? await backend.finish(transactionID: record.download.transactionID)
                }
                for joined in record.joined ?? [] where joined.finishes {
                    try? await backend.finish(transactionID: joined.transactionID)
                }
            case .stopped(let state) where state == .cancelled:
                try markCancelled(record)
            case .stopped:
                record.download.state = .paused
                record.download.bytesPerSecond = 0
                try records.commit(record)
                broadcaster.send(.downloadPaused(record.download))
            }
        } catch {
            record.download.state = .failed
            record.download.error = error
            record.download.bytesPerSecond = 0
            records[id] = record
            // The failure itself may be the disk; the record in memory still says failed.
            try? records.commit(record)
            broadcaster.send(.downloadFailed(record.download))
        }
        if scheduler.stopRequests[id] != nil { control.clear(id) }
        scheduler.ended(id)
        scheduler.settle(records[id]?.download ?? record.download)
        schedule()
    }

    func report(_ record: inout DownloadRecord) {
        let due = progress.note(&record, at: clock.now)
        records[record.download.id] = record
        if due { broadcaster.send(.downloadUpdated(record.download)) }
    }
}
