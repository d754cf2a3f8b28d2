internal import SystemIO

/// One file of a download on its way to the disk: chunks are hashed here, as they arrive, and
/// written and synced in the background (`ChunkPipeline`); every `checkpointBytes` a stretch
/// ends and becomes a checkpoint (its end and the SHA-256 of the file up to it) once it is
/// durable. A resume re-reads and re-hashes the checkpointed stretches (which also
/// restores the whole-file digest); any mismatch or a short file means the partial is corrupt,
/// and the file starts again from zero.
struct ChunkTransfer: ~Copyable {
    private let fs: any FileSystem
    /// The manifest's entry for the file.
    let file: ContentFile
    private let handle: OpenFile
    private let pipeline: ChunkPipeline
    /// The SHA-256 of the file's bytes so far (taken by `digest`).
    private var whole: ContentHasher?
    /// Bytes of the file written so far.
    private(set) var offset: Int64 = 0
    /// Where the current stretch began (the last checkpoint's end).
    private var stretchStart: Int64
    /// Bytes written since the last checkpoint.
    var stretchLength: Int64 { offset - stretchStart }
    /// How many written bytes may wait for their sync at a checkpoint: an eighth of the file,
    /// at least one checkpoint and at most 64 MiB (a power loss then costs at most that much
    /// downloading again, and the transfer never waits for a disk that keeps up).
    private let maxUndurable: Int64

    /// Opens the partial file at `path` (creating it and its directory) and picks up from the
    /// record's checkpoints when the bytes still match them, else from zero (clearing them).
    /// A record of format 1 comes out with its checkpoints in format 2 (prefix digests).
    init(
        _ file: ContentFile, at path: String, resuming record: inout DownloadRecord, checkpointBytes: Int64,
        fileSystem: any FileSystem
    ) throws(DownloadError) {
        var whole = try ContentHasher()
        let handle = try DownloadError.translating { () throws(SystemCallError) -> OpenFile in
            try fileSystem.createDirectories(FilePaths.parent(of: path))
            return try fileSystem.open(path, [.readWrite, .create], mode: 0o600)
        }
        let offset: Int64
        do {
            offset = try Self.resume(handle, &record, into: &whole, fileSystem: fileSystem)
            try DownloadError.translating { () throws(SystemCallError) in
                try fileSystem.truncate(handle, to: UInt64(offset))
            }
        } catch {
            fileSystem.close(handle)
            throw error
        }
        self.fs = fileSystem
        self.file = file
        self.handle = handle
        self.offset = offset
        self.stretchStart = offset
        self.maxUndurable = min(64 << 20, max(checkpointBytes, file.size / 8))
        self.pipeline = ChunkPipeline(fileSystem: fileSystem, handle: handle, offset: offset)
        self.whole = consume whole
    }

    deinit { pipeline.close() }

    /// Streams `chunks` into the file, one at a time, until the source ends or a stop is asked.
    /// - Parameters:
    ///   - chunks: the source's bytes from `offset` on.
    ///   - shouldStop: asked before each chunk.
    ///   - isStopping: asked after a failure: a stop asked meanwhile makes it moot.
    ///   - received: called after each chunk is written (it may `checkpoint`).
    ///   - isolation: the caller's actor, on which all of it runs.
    /// - Throws: the first `DownloadError` (a source's other errors as `.transferFailed`),
    ///   unless a stop was asked by then.
    mutating func receive(
        _ chunks: AsyncThrowingStream<[UInt8], any Error>, shouldStop: () -> Bool, isStopping: () -> Bool,
        received: (inout ChunkTransfer) async throws(DownloadError) -> Void,
        isolation: isolated (any Actor)? = #isolation
    ) async throws(DownloadError) {
        do {
            for try await chunk in chunks {
                if shouldStop() { break }
                try append(chunk)
                try await received(&self)
            }
        } catch let error as DownloadError {
            if !isStopping() { throw error }
        } catch {
            if !isStopping() { throw .transferFailed("\(error)") }
        }
    }

    /// Hashes the next chunk and hands it to the background writer.
    /// - Throws: `DownloadError.sizeMismatch` when the file would outgrow the manifest's size;
    ///   an earlier write's or sync's failure.
    mutating func append(_ chunk: [UInt8]) throws(DownloadError) {
        let (end, overflow) = offset.addingReportingOverflow(Int64(chunk.count))
        guard !overflow, end <= file.size else {
            throw .sizeMismatch(file: file.path, expected: file.size, actual: overflow ? Int64.max : end)
        }
        try whole?.update(chunk)
        try pipeline.write(chunk, at: offset)
        offset = end
    }

    /// Ends the stretch here: its sync and digest go on in the background. Waits only when
    /// more than `maxUndurable` bytes would be waiting for the disk.
    /// - Returns: the checkpoints that became durable since the last call, oldest first.
    mutating func checkpoint(
        isolation: isolated (any Actor)? = #isolation
    ) async throws(DownloadError) -> [ChunkPipeline.Checkpoint] {
        pipeline.markCheckpoint(at: offset, sha256: try whole?.digestSoFar() ?? "")
        stretchStart = offset
        if offset - maxUndurable > 0 { await pipeline.waitForDurability(atLeast: offset - maxUndurable) }
        return try pipeline.collect()
    }

    /// Makes every byte written so far durable and returns the checkpoints not returned yet.
    func settle(isolation: isolated (any Actor)? = #isolation) async throws(DownloadError) -> [ChunkPipeline.Checkpoint]
    {
        try await pipeline.settle(through: offset)
    }

    /// The whole file's SHA-256 (call once, after the last chunk; no checkpoint can follow).
    mutating func digest() throws(DownloadError) -> String {
        try whole.take()?.finish() ?? ""
    }

    /// Stops the background writes and waits until none runs (chunks not written yet are
    /// dropped); the file is closed once no sync uses it either.
    func close(isolation: isolated (any Actor)? = #isolation) async {
        await pipeline.closeAndFinishWriting()
    }

    /// Cuts the partial file to nothing once no write is left (bytes that failed verification
    /// are never kept).
    func discard(isolation: isolated (any Actor)? = #isolation) async {
        try? await pipeline.finishWrites()
        try? fs.truncate(handle, to: 0)
    }

    /// Where a resumed file goes on: its durable offset when the checkpointed stretches still
    /// hold the same bytes (fed into `whole`), else 0, with the record's checkpoints cleared.
    private static func resume(
        _ handle: OpenFile, _ record: inout DownloadRecord, into whole: inout ContentHasher, fileSystem: any FileSystem
    ) throws(DownloadError) -> Int64 {
        guard record.durableOffset > 0 else { return 0 }
        if let prefixDigests = try verifyPrefix(handle, record, into: &whole, fileSystem: fileSystem) {
            record.segments = prefixDigests
            record.formatVersion = DownloadRecord.currentFormat
            return record.durableOffset
        }
        // The partial file no longer holds what was made durable: download it again.
        whole = try ContentHasher()
        record.segments = []
        record.durableOffset = 0
        return 0
    }

    /// Re-reads the checkpointed stretches, feeding the bytes into `whole`, and checks each
    /// checkpoint's SHA-256: of the file up to its end (format 2), or of the stretch alone
    /// (format 1). Returns the checkpoints with prefix digests, or `nil` when the file is short,
    /// the checkpoints do not add up to the durable offset, or any digest differs.
    private static func verifyPrefix(
        _ handle: OpenFile, _ record: DownloadRecord, into whole: inout ContentHasher, fileSystem fs: any FileSystem
    ) throws(DownloadError) -> [DownloadRecord.Segment]? {
        let segments = record.segments
        let length = try DownloadError.translating { () throws(SystemCallError) in try fs.status(of: handle).size }
        let durable = segments.reduce(Int64(0)) { $0 + $1.length }
        guard durable == record.durableOffset, length >= UInt64(max(0, durable)) else { return nil }
        let stretchDigests = record.formatVersion == 1
        var position: Int64 = 0
        var verified: [DownloadRecord.Segment] = []
        let block = 1 << 20
        for segment in segments {
            var stretch = try ContentHasher()
            var left = segment.length
            while left > 0 {
                let count = Int(min(Int64(block), left))
                let bytes = try DownloadError.translating { () throws(SystemCallError) in
                    try fs.read(handle, count: count, at: UInt64(position))
                }
                guard bytes.count == count else { return nil }
                if stretchDigests { try stretch.update(bytes) }
                try whole.update(bytes)
                position += Int64(count)
                left -= Int64(count)
            }
            let prefix = try whole.digestSoFar()
            guard try (stretchDigests ? stretch.finish() : prefix) == segment.sha256 else { return nil }
            verified.append(DownloadRecord.Segment(length: segment.length, sha256: prefix))
        }
        return verified
    }
}
