internal import SystemIO

/// The run of one file of a download: streaming it through a `ChunkTransfer`, recording each
/// checkpoint once it is durable, and the end of the file.
extension DownloadManager {
    /// Streams the record's current file to its partial file, checkpointing as it goes.
    ///
    /// Checkpoints become durable in the background; each one is appended to the checkpoint
    /// log as soon as the transfer learns it is durable (at the next checkpoint, or when the
    /// file ends or stops), and the `.midDownload` fault point follows each. Whatever way the
    /// file ends, `record` comes back holding every checkpoint that is durable by then.
    func downloadFile(
        _ record: inout DownloadRecord, from source: any ContentDownloader
    ) async throws(DownloadError) -> Outcome {
        let id = record.download.id
        let file = record.manifest.files[record.fileIndex]
        let format = record.formatVersion
        var transfer = try ChunkTransfer(
            file, at: paths.partialDirectory(id) + "/" + file.path, resuming: &record,
            checkpointBytes: configuration.checkpointBytes, fileSystem: fs)
        record.download.bytesWritten = record.completedBytes + transfer.offset
        records[id] = record
        // A format 1 record now holds prefix digests: write it before logging against it.
        if record.formatVersion != format { try records.commit(record) }
        let outcome: Result<Outcome, DownloadError>
        do {
            outcome = .success(try await stream(&transfer, &record, from: source))
        } catch {
            outcome = .failure(error)
        }
        // No byte of this run lands in the file once it is over (a retry truncates it first).
        await transfer.close()
        return try outcome.get()
    }

    /// Streams the file through `transfer` to its end, a stop or a failure.
    private func stream(
        _ transfer: inout ChunkTransfer, _ record: inout DownloadRecord, from source: any ContentDownloader
    ) async throws(DownloadError) -> Outcome {
        let id = record.download.id
        let file = transfer.file
        do {
            try await transfer.receive(
                source.bytes(of: file, in: record.manifest, from: transfer.offset),
                shouldStop: { stopRequested(id) }, isStopping: { scheduler.stopRequests[id] != nil }
            ) { (transfer: inout ChunkTransfer) async throws(DownloadError) in
                record.download.bytesWritten = record.completedBytes + transfer.offset
                if transfer.stretchLength >= configuration.checkpointBytes {
                    try keep(await transfer.checkpoint(), in: &record, logging: true)
                }
                report(&record)
            }
        } catch {
            // The failure's record names what became durable before it.
            if let durable = try? await transfer.settle() { try? keep(durable, in: &record, logging: true) }
            throw error
        }

        if let stop = scheduler.stopRequests[id] {
            if stop == .paused {
                // The paused record, written next, names every byte so far.
                if transfer.stretchLength > 0 { try keep(await transfer.checkpoint(), in: &record, logging: false) }
                try keep(await transfer.settle(), in: &record, logging: false)
            }
            return .stopped(stop)
        }
        guard transfer.offset == file.size else {
            if let durable = try? await transfer.settle() { try? keep(durable, in: &record, logging: true) }
            throw .transferFailed("\(file.path): the source ended after \(transfer.offset) of \(file.size) bytes")
        }
        let actual = try transfer.digest()
        guard actual == file.sha256 else {
            // Never keep bytes that failed verification: a retry starts this file afresh.
            await transfer.discard()
            record.durableOffset = 0
            record.segments = []
            records[id] = record
            try? records.commit(record)
            throw .checksumMismatch(file: file.path, expected: file.sha256, actual: actual)
        }
        try keep(await transfer.settle(), in: &record, logging: true)
        let index = record.fileIndex
        record.completeFile(size: file.size)
        records[id] = record
        try records.log(id) { .fileComplete(generation: $0, file: index) }
        return .completed
    }

    /// Adds checkpoints that are durable to the record (in memory), and when `logging` to its
    /// checkpoint log, each followed by the `.midDownload` fault point.
    private func keep(
        _ durable: [ChunkPipeline.Checkpoint], in record: inout DownloadRecord, logging: Bool
    ) throws(DownloadError) {
        let id = record.download.id
        for checkpoint in durable {
            record.segments.append(
                DownloadRecord.Segment(length: checkpoint.end - record.durableOffset, sha256: checkpoint.sha256))
            record.durableOffset = checkpoint.end
            records[id] = record
            guard logging else { continue }
            let index = record.fileIndex
            try records.log(id) {
                .checkpoint(generation: $0, file: index, end: checkpoint.end, sha256: checkpoint.sha256)
            }
            faultHook(.midDownload)
        }
    }

    /// Whether download `id` was asked to stop, here or through a control file.
    private func stopRequested(_ id: String) -> Bool {
        if scheduler.stopRequests[id] == nil, let asked = control.pending(for: id) {
            scheduler.stopRequests[id] = asked
        }
        return scheduler.stopRequests[id] != nil
    }
}
