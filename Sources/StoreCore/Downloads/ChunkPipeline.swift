import Dispatch
import Synchronization
import SystemIO

/// The work a `ChunkTransfer` hands to other threads so that receiving and writing never wait
/// for it: hashing the written chunks in order (one serial queue, which also takes the digest
/// of the file's prefix at every checkpoint), and making checkpoints durable (`fdatasync` on a
/// second queue, coalesced: one sync covers every checkpoint that was asked for while the
/// previous sync ran, so a disk slower than the transfer costs fewer syncs, not a slower
/// transfer).
///
/// A checkpoint counts only once both are done: its bytes were synced after they were written,
/// and its digest is known. The transfer learns which have by `collect`ing them, so its record
/// never names a byte that is not durable. It waits only to bound what is in flight: hashing
/// at most `hashBacklogBytes` behind (memory stays flat) and, at a checkpoint, durability at
/// most `maxUndurable` behind (what a power loss can cost).
///
/// A failure (a sync's `errno`, OpenSSL) is kept and thrown by the next call that needs the
/// result; a failed sync is never retried (see `FileSystem.synchronize`).
final class ChunkPipeline: Sendable {
    /// The durable end of a stretch of the file and the SHA-256 of the file's bytes before it.
    struct Checkpoint: Equatable, Sendable {
        let end: Int64
        let sha256: String
    }

    private struct State {
        var hashBacklog = 0
        /// The end of the last checkpoint whose digest was taken.
        var digestedThrough: Int64
        /// Digests taken, not collected yet, in order.
        var digests: [Checkpoint] = []
        var wholeDigest: String?
        /// The end of the last checkpoint marked.
        var lastMarked: Int64
        var requested: Int64
        var durable: Int64
        var syncing = false
        var closeRequested = false
        var failure: DownloadError?
        var waiter: (isMet: @Sendable (State) -> Bool, continuation: CheckedContinuation<Void, Never>)?
    }

    /// The hasher, touched only on `hashQueue` once the pipeline exists.
    private final class HasherBox: @unchecked Sendable {
        var hasher: ContentHasher?
        init(_ hasher: consuming ContentHasher) { self.hasher = consume hasher }
    }

    /// How far hashing may fall behind the writes, in bytes.
    static let hashBacklogBytes = 4 << 20

    private let fs: any FileSystem
    private let handle: OpenFile
    private let box: HasherBox
    private let state: Mutex<State>
    private let hashQueue = DispatchQueue(label: "storefront.download.hash")
    private let syncQueue = DispatchQueue(label: "storefront.download.sync")

    /// Takes over `handle` (closed by `close()` once no sync uses it) and `hasher`, which has
    /// seen the file's first `offset` bytes, all of them durable.
    init(fileSystem: any FileSystem, handle: OpenFile, hasher: consuming ContentHasher, offset: Int64) {
        self.fs = fileSystem
        self.handle = handle
        self.box = HasherBox(hasher)
        self.state = Mutex(State(digestedThrough: offset, lastMarked: offset, requested: offset, durable: offset))
    }

    // MARK: - From the transfer

    /// Hashes `chunk` (the file's next bytes, already written) in the background, first
    /// waiting while hashing is more than `hashBacklogBytes` behind.
    func hash(_ chunk: [UInt8]) async throws(DownloadError) {
        if state.withLock({ $0.hashBacklog >= Self.hashBacklogBytes }) {
            await wait { $0.hashBacklog < Self.hashBacklogBytes }
        }
        try throwIfFailed()
        state.withLock { $0.hashBacklog += chunk.count }
        hashQueue.async { [self] in
            var failure: DownloadError?
            do throws(DownloadError) {
                try box.hasher?.update(chunk)
            } catch {
                failure = error
            }
            change { state in
                state.hashBacklog -= chunk.count
                if let failure, state.failure == nil { state.failure = failure }
            }
        }
    }

    /// Ends a stretch at `end` (every byte before it written and handed to `hash`): its digest
    /// is taken in order, and a sync through it is asked for.
    func markCheckpoint(at end: Int64) {
        state.withLock { $0.lastMarked = max($0.lastMarked, end) }
        hashQueue.async { [self] in
            var digest: String?
            var failure: DownloadError?
            do throws(DownloadError) {
                digest = try box.hasher?.digestSoFar()
            } catch {
                failure = error
            }
            change { state in
                state.digestedThrough = end
                if let digest { state.digests.append(Checkpoint(end: end, sha256: digest)) }
                if let failure, state.failure == nil { state.failure = failure }
            }
        }
        requestSync(through: end)
    }

    /// Asks for the bytes before `end` to be made durable (at once when no sync runs, else by
    /// the next one).
    func requestSync(through end: Int64) {
        let start = state.withLock { state -> Bool in
            state.requested = max(state.requested, end)
            guard !state.syncing, !state.closeRequested, state.failure == nil, state.requested > state.durable else { return false }
            state.syncing = true
            return true
        }
        if start { syncQueue.async { [self] in runSyncs() } }
    }

    /// Waits until every checkpoint before `floor` is durable and digested (or something failed).
    func waitForDurability(atLeast floor: Int64) async {
        await wait { $0.durable >= floor && $0.digestedThrough >= floor }
    }

    /// Makes everything asked for so far durable and digested, then collects it.
    /// - Parameter end: the file's bytes written so far (synced too, checkpoint or not).
    func settle(through end: Int64) async throws(DownloadError) -> [Checkpoint] {
        requestSync(through: end)
        let (target, marked) = state.withLock { ($0.requested, $0.lastMarked) }
        await wait { $0.durable >= target && $0.digestedThrough >= marked }
        return try collect()
    }

    /// The checkpoints that are both durable and digested and were not collected yet, in order.
    /// - Throws: the first failure of a sync or of hashing.
    func collect() throws(DownloadError) -> [Checkpoint] {
        try state.withLock { state throws(DownloadError) -> [Checkpoint] in
            if let failure = state.failure { throw failure }
            let ready = state.digests.prefix { $0.end <= state.durable }
            state.digests.removeFirst(ready.count)
            return Array(ready)
        }
    }

    /// The SHA-256 of the whole file, once every chunk handed to `hash` is hashed (call once,
    /// after the last chunk; no checkpoint can follow).
    func wholeDigest() async throws(DownloadError) -> String {
        hashQueue.async { [self] in
            var digest: String?
            var failure: DownloadError?
            do throws(DownloadError) {
                digest = try box.hasher.take()?.finish()
            } catch {
                failure = error
            }
            change { state in
                state.wholeDigest = digest ?? ""
                if let failure, state.failure == nil { state.failure = failure }
            }
        }
        await wait { $0.wholeDigest != nil }
        try throwIfFailed()
        return state.withLock { $0.wholeDigest ?? "" }
    }

    /// Closes the file once no sync uses it any more; nothing more may be asked afterwards.
    func close() {
        let now = state.withLock { state -> Bool in
            state.closeRequested = true
            return !state.syncing
        }
        if now { fs.close(handle) }
    }

    // MARK: - Background

    private func runSyncs() {
        while true {
            let target = state.withLock { $0.requested }
            var failure: DownloadError?
            do {
                try fs.synchronize(handle, .data)
            } catch {
                failure = DownloadError(error)
            }
            let (again, closes) = change { state -> (Bool, Bool) in
                if let failure {
                    if state.failure == nil { state.failure = failure }
                } else {
                    state.durable = max(state.durable, target)
                }
                let again = failure == nil && !state.closeRequested && state.requested > state.durable
                if !again { state.syncing = false }
                return (again, !again && state.closeRequested)
            }
            if closes { fs.close(handle) }
            if !again { return }
        }
    }

    private func throwIfFailed() throws(DownloadError) {
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Changes the state and wakes the waiter when its condition now holds (or on a failure).
    @discardableResult
    private func change<R>(_ body: (inout State) -> R) -> R {
        let (result, woken) = state.withLock { state -> (R, CheckedContinuation<Void, Never>?) in
            let result = body(&state)
            guard let waiter = state.waiter, waiter.isMet(state) || state.failure != nil else { return (result, nil) }
            state.waiter = nil
            return (result, waiter.continuation)
        }
        woken?.resume()
        return result
    }

    /// Suspends until `isMet` holds or something failed (one waiter at a time: the transfer).
    private func wait(until isMet: @escaping @Sendable (State) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if isMet(state) || state.failure != nil { return true }
                state.waiter = (isMet, continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
