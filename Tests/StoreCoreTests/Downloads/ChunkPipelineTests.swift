import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import StoreCore

/// The background writes and syncs of a download's file: a checkpoint is collected only once
/// a sync that began after every byte before its end was written has ended, whichever thread
/// wrote them, and a failure reaches the transfer.
@Suite struct ChunkPipelineTests {
    static let chunk = 512 << 10

    static func bytes(_ index: Int) -> [UInt8] {
        (0..<chunk).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
    }

    let scratch: TemporaryDirectory
    var path: String { scratch.path("partial.bin") }

    init() throws { scratch = try TemporaryDirectory(prefix: "pipeline") }

    @Test func aCheckpointIsDurableOnlyOnceEveryByteBeforeItWasWrittenAndThenSynced() async throws {
        let fs = GatedFileSystem(gatedOffset: 0)
        let pipeline = ChunkPipeline(
            fileSystem: fs, handle: try fs.open(path, [.readWrite, .create], mode: 0o600), offset: 0)

        // The writer thread takes the first chunk and is held back at the gate.
        try pipeline.write(Self.bytes(0), at: 0)
        await fs.waitUntilGated()
        // More than the backlog follows: the transfer writes the oldest waiting chunks itself.
        let count = 8
        for index in 1..<count { try pipeline.write(Self.bytes(index), at: Int64(index * Self.chunk)) }
        let end = Int64(count * Self.chunk)
        pipeline.markCheckpoint(at: Int64(Self.chunk), sha256: "first")
        pipeline.markCheckpoint(at: end, sha256: "all")
        #expect(
            fs.events.contains(.wrote(offset: UInt64(Self.chunk), count: Self.chunk)),
            "the transfer did not write past the held chunk")

        // Bytes after the held chunk are written, but no checkpoint may count, nor any sync run.
        #expect(try pipeline.collect().isEmpty)
        #expect(!fs.events.contains(.syncStarted))

        fs.open()
        let durable = try await pipeline.settle(through: end)
        #expect(
            durable == [
                ChunkPipeline.Checkpoint(end: Int64(Self.chunk), sha256: "first"),
                ChunkPipeline.Checkpoint(end: end, sha256: "all"),
            ])
        let events = fs.events
        let lastWrite = try #require(events.lastIndex { if case .wrote = $0 { true } else { false } })
        let syncAfter = try #require(
            events[lastWrite...].firstIndex(of: .syncStarted), "no sync began after the last write: \(events)")
        #expect(events[syncAfter...].contains(.synced))
        #expect(events.filter { if case .wrote = $0 { true } else { false } }.count == count)

        await pipeline.closeAndFinishWriting()
        let written = try #require(FileManager.default.contents(atPath: path))
        #expect(written == Data((0..<count).flatMap { Self.bytes($0) }))
    }

    @Test func aFailedWriteReachesTheTransferAndNoCheckpointAfterItCounts() async throws {
        let fs = FaultInjectingFileSystem()
        let pipeline = ChunkPipeline(
            fileSystem: fs, handle: try fs.open(path, [.readWrite, .create], mode: 0o600), offset: 0)

        try pipeline.write(Self.bytes(0), at: 0)
        pipeline.markCheckpoint(at: Int64(Self.chunk), sha256: "first")
        #expect(try await pipeline.settle(through: Int64(Self.chunk)).map(\.end) == [Int64(Self.chunk)])

        fs.fail(.write, with: .noSpace)
        var thrown: DownloadError?
        do {
            for index in 1..<16 { try pipeline.write(Self.bytes(index), at: Int64(index * Self.chunk)) }
            pipeline.markCheckpoint(at: Int64(16 * Self.chunk), sha256: "all")
            _ = try await pipeline.settle(through: Int64(16 * Self.chunk))
        } catch {
            thrown = error
        }
        guard case .diskFull(let failedPath)? = thrown else {
            Issue.record("expected diskFull, got \(String(describing: thrown))")
            return
        }
        #expect(failedPath == path)
        #expect(throws: DownloadError.self) { try pipeline.collect() }
        await pipeline.closeAndFinishWriting()
    }
}
