import SystemIO

/// One file of a download on its way to the disk: chunks are written to the partial file and
/// hashed, and every `checkpointBytes` the file is synced and the stretch's length and
/// SHA-256 become a checkpoint the record keeps. A resume re-reads and re-hashes the
/// checkpointed stretches (which also restores the whole-file digest); any mismatch or a
/// short file means the partial is corrupt, and the file starts again from zero.
struct ChunkTransfer: ~Copyable {
    private let fs: any FileSystem
    /// The manifest's entry for the file.
    let file: ContentFile
    private let handle: OpenFile
    /// Bytes of the file written so far.
    private(set) var offset: Int64 = 0
    private var whole: ContentHasher
    private var stretch: ContentHasher
    /// Bytes written since the last checkpoint.
    private(set) var stretchLength: Int64 = 0

    /// Opens the partial file at `path` (creating it and its directory) and picks up from the
    /// record's checkpoints when the bytes still match them, else from zero (clearing them).
    init(_ file: ContentFile, at path: String, resuming record: inout DownloadRecord, fileSystem: any FileSystem) throws(DownloadError) {
        var whole = try ContentHasher()
        let stretch = try ContentHasher()
        let handle = try DownloadError.translating { () throws(SystemCallError) -> OpenFile in
            try fileSystem.createDirectories(FilePaths.parent(of: path))
            return try fileSystem.open(path, [.readWrite, .create], mode: 0o600)
        }
        let offset: Int64
        do {
            offset = try Self.resume(handle, &record, into: &whole, fileSystem: fileSystem)
            try DownloadError.translating { () throws(SystemCallError) in try fileSystem.truncate(handle, to: UInt64(offset)) }
        } catch {
            fileSystem.close(handle)
            throw error
        }
        self.fs = fileSystem
        self.file = file
        self.handle = handle
        self.offset = offset
        self.whole = whole
        self.stretch = stretch
    }

    /// Where a resumed file goes on: its durable offset when the checkpointed stretches still
    /// hold the same bytes (fed into `whole`), else 0, with the record's checkpoints cleared.
    private static func resume(
        _ handle: OpenFile, _ record: inout DownloadRecord, into whole: inout ContentHasher, fileSystem: any FileSystem
    ) throws(DownloadError) -> Int64 {
        guard record.durableOffset > 0 else { return 0 }
        if try verifyPrefix(handle, record.segments, into: &whole, fileSystem: fileSystem) { return record.durableOffset }
        // The partial file no longer holds what was made durable: download it again.
        whole = try ContentHasher()
        record.segments = []
        record.durableOffset = 0
        return 0
    }

    deinit { fs.close(handle) }

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
        received: (inout ChunkTransfer) throws(DownloadError) -> Void, isolation: isolated (any Actor)? = #isolation
    ) async throws(DownloadError) {
        do {
            for try await chunk in chunks {
                if shouldStop() { break }
                try append(chunk)
                try received(&self)
            }
        } catch let error as DownloadError {
            if !isStopping() { throw error }
        } catch {
            if !isStopping() { throw .transferFailed("\(error)") }
        }
    }

    /// Writes and hashes the next chunk.
    /// - Throws: `DownloadError.sizeMismatch` when the file would outgrow the manifest's size.
    mutating func append(_ chunk: [UInt8]) throws(DownloadError) {
        let (end, overflow) = offset.addingReportingOverflow(Int64(chunk.count))
        guard !overflow, end <= file.size else {
            throw .sizeMismatch(file: file.path, expected: file.size, actual: overflow ? Int64.max : end)
        }
        try DownloadError.translating { () throws(SystemCallError) in try fs.write(handle, chunk, at: UInt64(offset)) }
        try whole.update(chunk)
        try stretch.update(chunk)
        offset = end
        stretchLength += Int64(chunk.count)
    }

    /// Makes the bytes so far durable and closes the stretch.
    /// - Returns: the stretch, for the record's checkpoints.
    mutating func checkpoint() throws(DownloadError) -> DownloadRecord.Segment {
        try sync()
        let segment = DownloadRecord.Segment(length: stretchLength, sha256: try stretch.finishAndRestart())
        stretchLength = 0
        return segment
    }

    /// Makes the bytes so far durable.
    func sync() throws(DownloadError) {
        try DownloadError.translating { () throws(SystemCallError) in try fs.synchronize(handle, .all) }
    }

    /// The whole file's SHA-256 (call once, after the last chunk).
    mutating func digest() throws(DownloadError) -> String {
        try whole.finishAndRestart()
    }

    /// Cuts the partial file to nothing (bytes that failed verification are never kept).
    func discard() {
        try? fs.truncate(handle, to: 0)
    }

    /// Re-reads the checkpointed stretches and checks each one's SHA-256, feeding the bytes
    /// into `whole`. False when the file is short or any stretch differs.
    private static func verifyPrefix(
        _ handle: OpenFile, _ segments: [DownloadRecord.Segment], into whole: inout ContentHasher, fileSystem fs: any FileSystem
    ) throws(DownloadError) -> Bool {
        let length = try DownloadError.translating { () throws(SystemCallError) in try fs.status(of: handle).size }
        let durable = segments.reduce(Int64(0)) { $0 + $1.length }
        guard length >= UInt64(max(0, durable)) else { return false }
        var position: Int64 = 0
        let block = 1 << 16
        for segment in segments {
            var digest = try ContentHasher()
            var left = segment.length
            while left > 0 {
                let count = Int(min(Int64(block), left))
                let bytes = try DownloadError.translating { () throws(SystemCallError) in
                    try fs.read(handle, count: count, at: UInt64(position))
                }
                guard bytes.count == count else { return false }
                try digest.update(bytes)
                try whole.update(bytes)
                position += Int64(count)
                left -= Int64(count)
            }
            guard try digest.finish() == segment.sha256 else { return false }
        }
        return true
    }
}
