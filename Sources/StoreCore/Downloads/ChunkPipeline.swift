import Dispatch
import Synchronization
internal import SystemIO

/// The disk's half of a `ChunkTransfer`, on other threads so that receiving and hashing never
/// wait for it: writing the chunks into the partial file (`pwrite`s on a writer queue), and
/// making checkpoints durable (`fdatasync` on a sync queue, coalesced: one sync covers every
/// checkpoint whose bytes were written while the previous sync ran, so a disk slower than the
/// transfer costs fewer syncs, not a slower transfer).
///
/// The transfer never sleeps on the writer: when more than `writeBacklogBytes` wait to be
/// written, it writes the oldest itself (positional writes need no order), so a writer thread
/// the scheduler leaves off the CPU costs no time, and memory stays bounded. (The previous
/// design hashed in the background instead; on a loaded machine the transfer spent half its
/// time waiting for the hashing thread to be scheduled.)
///
/// A checkpoint counts only once a sync that began after every byte before its end was written
/// has ended. The transfer learns which have by `collect`ing them, so its record never names a
/// byte that is not durable. It waits only to bound what a power loss can cost: at a
/// checkpoint, durability at most `maxUndurable` behind (see `ChunkTransfer`).
///
/// A failure (a write's or a sync's `errno`) is kept and thrown by the next call; a failed
/// sync is never retried (see `FileSystem.synchronize`).
final class ChunkPipeline: Sendable {
    /// The durable end of a stretch of the file and the SHA-256 of the file's bytes before it.
    struct Checkpoint: Equatable, Sendable {
        let end: Int64
        let sha256: String
    }

    /// A chunk handed over, not yet being written.
    private struct Pending {
        let offset: Int64
        let bytes: [UInt8]
    }

    private struct State {
        /// Chunks waiting to be written, oldest first.
        var queue: [Pending] = []
        /// Bytes handed over and not yet written (queued or being written).
        var backlog = 0
        /// Where each write that runs now starts.
        var writing: [Int64] = []
        /// The end of the last chunk handed over.
        var appended: Int64
        var writerScheduled = false
        /// Checkpoints marked, not collected yet, in order.
        var marked: [Checkpoint] = []
        /// Ends that a sync was asked to cover (checkpoints, settles), ascending, beyond `durable`.
        var syncPoints: [Int64] = []
        var durable: Int64
        var syncing = false
        var closeRequested = false
        var closed = false
        var failure: DownloadError?
        var waiter: (isMet: @Sendable (State) -> Bool, continuation: CheckedContinuation<Void, Never>)?

        /// Every byte before this one is written: the start of the oldest chunk not written yet.
        var writtenThrough: Int64 {
            var through = queue.first?.offset ?? appended
            for start in writing { through = min(through, start) }
            return through
        }

        /// The furthest end asked for whose bytes are all written, when beyond `durable`.
        var syncTarget: Int64? {
            let written = writtenThrough
            guard let target = syncPoints.last(where: { $0 <= written }), target > durable else { return nil }
            return target
        }

        /// Whether the file may be closed now (asked for, and no thread uses it); once.
        mutating func takeClose() -> Bool {
            guard closeRequested, !writerScheduled, !syncing, !closed else { return false }
            closed = true
            return true
        }
    }

    /// How many handed-over bytes may wait for the writer before the transfer writes itself.
    static let writeBacklogBytes = 2 << 20

    private let fs: any FileSystem
    private let handle: OpenFile
    private let state: Mutex<State>
    private let writeQueue = DispatchQueue(label: "storefront.download.write")
    private let syncQueue = DispatchQueue(label: "storefront.download.sync")

    /// Takes over `handle` (closed by `close()` once no thread uses it), whose first `offset`
    /// bytes are durable.
    init(fileSystem: any FileSystem, handle: OpenFile, offset: Int64) {
        self.fs = fileSystem
        self.handle = handle
        self.state = Mutex(State(appended: offset, durable: offset))
    }

    // MARK: - From the transfer

    /// Hands over `bytes`, the file's bytes from `offset` (where the last chunk ended), to be
    /// written. Returns at once, unless more than `writeBacklogBytes` then wait: it writes the
    /// oldest itself until they no longer do.
    /// - Throws: the first failure of a write or a sync so far.
    func write(_ bytes: [UInt8], at offset: Int64) throws(DownloadError) {
        let (schedules, helps) = try state.withLock { state throws(DownloadError) -> (Bool, Bool) in
            if let failure = state.failure { throw failure }
            state.queue.append(Pending(offset: offset, bytes: bytes))
            state.backlog += bytes.count
            state.appended = offset + Int64(bytes.count)
            let schedules = !state.writerScheduled
            state.writerScheduled = true
            return (schedules, state.backlog > Self.writeBacklogBytes)
        }
        if schedules { writeQueue.async { [self] in runWrites() } }
        if helps {
            writeOldest { $0.backlog > Self.writeBacklogBytes }
            try throwIfFailed()
        }
    }

    /// Ends a stretch at `end` (every byte before it handed to `write`), whose prefix digest is
    /// `sha256`: a sync through it is asked for, and it is collected once that is done.
    func markCheckpoint(at end: Int64, sha256: String) {
        let syncs = state.withLock { state -> Bool in
            state.marked.append(Checkpoint(end: end, sha256: sha256))
            return Self.askSync(through: end, &state)
        }
        if syncs { syncQueue.async { [self] in runSyncs() } }
    }

    /// Waits until every byte before `floor` is durable (or something failed).
    func waitForDurability(atLeast floor: Int64) async {
        await wait { $0.durable >= floor }
    }

    /// Makes every byte handed over durable, then collects the checkpoints.
    /// - Parameter end: the file's bytes handed over so far (synced too, checkpoint or not).
    func settle(through end: Int64) async throws(DownloadError) -> [Checkpoint] {
        let syncs = state.withLock { Self.askSync(through: end, &$0) }
        if syncs { syncQueue.async { [self] in runSyncs() } }
        await wait { $0.durable >= end }
        return try collect()
    }

    /// Waits until every chunk handed over is written (or something failed): nothing writes
    /// to the file afterwards until the next `write`.
    func finishWrites() async throws(DownloadError) {
        await wait { $0.queue.isEmpty && $0.writing.isEmpty }
        try throwIfFailed()
    }

    /// The checkpoints that are durable and were not collected yet, in order.
    /// - Throws: the first failure of a write or a sync.
    func collect() throws(DownloadError) -> [Checkpoint] {
        try state.withLock { state throws(DownloadError) -> [Checkpoint] in
            if let failure = state.failure { throw failure }
            let ready = state.marked.prefix { $0.end <= state.durable }
            state.marked.removeFirst(ready.count)
            return Array(ready)
        }
    }

    /// Closes the file once no thread uses it any more (chunks not written yet are dropped);
    /// nothing more may be asked afterwards.
    func close() {
        let now = state.withLock { state -> Bool in
            state.closeRequested = true
            return state.takeClose()
        }
        if now { fs.close(handle) }
    }

    /// Closes the file (as `close`) and waits until no write runs any more, even after a
    /// failure: no byte of this pipeline lands in the file afterwards (a retry may truncate it).
    func closeAndFinishWriting() async {
        close()
        await wait(orFailure: false) { $0.writing.isEmpty }
    }

    // MARK: - Background

    /// Asks for a sync through `end` (under the lock); whether one should start now.
    private static func askSync(through end: Int64, _ state: inout State) -> Bool {
        if end > state.durable, end > (state.syncPoints.last ?? state.durable) { state.syncPoints.append(end) }
        return claimSync(&state)
    }

    /// Whether a sync should start now, as none runs and some asked-for end is all written (under
    /// the lock; it is then counted as running).
    private static func claimSync(_ state: inout State) -> Bool {
        guard !state.syncing, !state.closeRequested, state.failure == nil, state.syncTarget != nil else { return false }
        state.syncing = true
        return true
    }

    /// Writes the oldest queued chunks, one at a time, while `more` holds.
    private func writeOldest(while more: (State) -> Bool) {
        while true {
            let next = state.withLock { state -> Pending? in
                guard state.failure == nil, !state.closeRequested, more(state), !state.queue.isEmpty else { return nil }
                let next = state.queue.removeFirst()
                state.writing.append(next.offset)
                return next
            }
            guard let next else { return }
            var failure: DownloadError?
            do {
                try fs.write(handle, next.bytes, at: UInt64(next.offset))
            } catch {
                failure = DownloadError(error)
            }
            let syncs = change { state -> Bool in
                state.writing.removeAll { $0 == next.offset }
                state.backlog -= next.bytes.count
                if let failure, state.failure == nil { state.failure = failure }
                return Self.claimSync(&state)
            }
            if syncs { syncQueue.async { [self] in runSyncs() } }
        }
    }

    private func runWrites() {
        while true {
            writeOldest { _ in true }
            let (done, closes) = change { state -> (Bool, Bool) in
                guard state.queue.isEmpty || state.failure != nil || state.closeRequested else { return (false, false) }
                state.writerScheduled = false
                return (true, state.takeClose())
            }
            if closes { fs.close(handle) }
            if done { return }
        }
    }

    private func runSyncs() {
        while true {
            // Only bytes whose writes ended before the sync begins are covered by it.
            let target = state.withLock { $0.syncTarget }
            var failure: DownloadError?
            if target != nil {
                do {
                    try fs.synchronize(handle, .data)
                } catch {
                    failure = DownloadError(error)
                }
            }
            let (again, closes) = change { state -> (Bool, Bool) in
                if let failure {
                    if state.failure == nil { state.failure = failure }
                } else if let target {
                    state.durable = max(state.durable, target)
                    state.syncPoints.removeAll { $0 <= state.durable }
                }
                let again = state.failure == nil && !state.closeRequested && state.syncTarget != nil
                if !again { state.syncing = false }
                return (again, !again && state.takeClose())
            }
            if closes { fs.close(handle) }
            if !again { return }
        }
    }

    private func throwIfFailed() throws(DownloadError) {
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Changes the state and wakes the waiter when its condition now holds.
    @discardableResult
    private func change<R>(_ body: (inout State) -> R) -> R {
        let (result, woken) = state.withLock { state -> (R, CheckedContinuation<Void, Never>?) in
            let result = body(&state)
            guard let waiter = state.waiter, waiter.isMet(state) else { return (result, nil) }
            state.waiter = nil
            return (result, waiter.continuation)
        }
        woken?.resume()
        return result
    }

    /// Suspends until `isMet` holds or, when `orFailure`, something failed (one waiter at a time:
    /// the transfer).
    private func wait(orFailure: Bool = true, until isMet: @escaping @Sendable (State) -> Bool) async {
        let condition: @Sendable (State) -> Bool = { state in isMet(state) || (orFailure && state.failure != nil) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if condition(state) { return true }
                state.waiter = (condition, continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
