import Foundation
import StoreCore
import Synchronization
internal import SystemIO

/// Serves one file of hosted content from a byte offset, chunk by chunk as the engine pulls,
/// at the store's bandwidth (sleeping through the store's clock) and failing at the
/// `fail-downloads-at` share of the whole content when that is set. Each chunk is one `pread`
/// through the store's `FileSystem` straight into the array the engine receives (no `Data`,
/// no second copy: `FileHandle.read(upToCount:)` issued a 4 KiB `read` per page).
final class ContentStreamer: Sendable {
    private struct State {
        var handle: OpenFile?
        var position: Int64
        /// When serving started and how much was served since, to pace against a schedule
        /// (sleeping per chunk alone would add each sleep's overshoot).
        var started: Date?
        var served: Int64 = 0
    }

    private let url: URL
    private let path: String
    private let size: Int64
    /// Where this file starts within the whole content, and the whole content's size.
    private let contentOffset: Int64
    private let contentTotal: Int64
    private let bandwidth: Int
    private let failAtPercent: Int?
    private let clock: any StoreClock
    private let fs: any FileSystem
    private let state: Mutex<State>

    init(
        url: URL, path: String, size: Int64, offset: Int64, contentOffset: Int64, contentTotal: Int64,
        bandwidth: Int, failAtPercent: Int?, clock: any StoreClock, fileSystem: any FileSystem
    ) {
        self.url = url
        self.path = path
        self.size = size
        self.contentOffset = contentOffset
        self.contentTotal = contentTotal
        self.bandwidth = bandwidth
        self.failAtPercent = failAtPercent
        self.clock = clock
        self.fs = fileSystem
        self.state = Mutex(State(handle: nil, position: offset))
    }

    deinit {
        let fs = self.fs
        state.withLock { state in state.handle.map { fs.close($0) } }
    }

    /// The chunk size: 256 KiB unlimited, else at most 64 KiB and small enough that progress
    /// moves about 20 times a second.
    private var chunkSize: Int {
        guard bandwidth > 0 else { return 1 << 18 }
        return max(1024, min(1 << 16, bandwidth / 20))
    }

    /// The byte of the whole content where a download fails, when set.
    private var failureByte: Int64? {
        failAtPercent.map { contentTotal * Int64($0) / 100 }
    }

    /// The next chunk, `nil` at the end of the file.
    /// - Throws: `DownloadError` when the file cannot be read or the failure point is reached.
    func next() async throws -> [UInt8]? {
        let position = state.withLock { $0.position }
        guard position < size else { return nil }
        var count = Int64(chunkSize)
        if let failure = failureByte {
            let here = contentOffset + position
            if here >= failure {
                throw DownloadError.transferFailed(
                    "the local App Store failed the download at \(failAtPercent ?? 0)% (store set fail-downloads-at off to stop)"
                )
            }
            count = min(count, failure - here)
        }
        count = min(count, size - position)
        let bytes = try read(at: position, count: Int(count))
        guard !bytes.isEmpty else {
            throw DownloadError.transferFailed("\(path) is shorter on the store's disk than its manifest says")
        }
        if bandwidth > 0 {
            let now = clock.now
            let (started, served) = state.withLock { state -> (Date, Int64) in
                let started = state.started ?? now
                state.started = started
                state.served += Int64(bytes.count)
                return (started, state.served)
            }
            let due = started.addingTimeInterval(Double(served) / Double(bandwidth))
            let wait = due.timeIntervalSince(now)
            if wait > 0 { try await clock.sleep(for: .nanoseconds(Int64(wait * 1e9))) }
        }
        state.withLock { $0.position = position + Int64(bytes.count) }
        return bytes
    }

    private func read(at position: Int64, count: Int) throws -> [UInt8] {
        try state.withLock { state throws -> [UInt8] in
            do {
                let handle = try state.handle ?? fs.open(url.path, [.read])
                state.handle = handle
                return try fs.read(handle, count: count, at: UInt64(position))
            } catch {
                throw DownloadError.transferFailed("the store cannot read its content: \(error)")
            }
        }
    }
}
