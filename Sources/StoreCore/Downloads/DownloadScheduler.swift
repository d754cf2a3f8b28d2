internal import SystemIO

/// Which downloads run, which wait and who waits for them, and the leases that make one
/// process at a time run a download (`flock` on `Downloads/locks/ID.lock`, which the kernel
/// drops when the process dies). Not thread-safe: `DownloadManager` (an actor) owns it.
struct DownloadScheduler {
    private let fs: any FileSystem
    private let paths: DownloadPaths
    private let configuration: DownloadConfiguration
    /// The downloads running in this process.
    private(set) var running: [String: Task<Void, Never>] = [:]
    /// Downloads asked for by `resume` (all are, when downloads start automatically).
    private(set) var requested: Set<String> = []
    /// Pauses and cancels asked for running downloads, acted on at the next chunk.
    var stopRequests: [String: DownloadState] = [:]
    private var waiters: [String: [(token: Int, continuation: CheckedContinuation<Download, Never>)]] = [:]
    private var lastWaiterToken = 0
    /// The lease files held while downloads run (`nil`: running without one).
    private var leases: [String: OpenFile?] = [:]

    init(fileSystem: any FileSystem, paths: DownloadPaths, configuration: DownloadConfiguration) {
        self.fs = fileSystem
        self.paths = paths
        self.configuration = configuration
    }

    // MARK: - Running

    func isRunning(_ id: String) -> Bool { running[id] != nil }

    /// The waiting downloads to start now, oldest first, within `maxConcurrentDownloads`.
    func dueToStart(_ records: [String: DownloadRecord]) -> [String] {
        let waiting = records.values
            .filter { $0.download.state == .waiting && running[$0.download.id] == nil }
            .filter { configuration.startsAutomatically || requested.contains($0.download.id) }
            .sorted { $0.sequence < $1.sequence }
        return waiting.prefix(max(0, configuration.maxConcurrentDownloads - running.count)).map(\.download.id)
    }

    /// Whether download `id` will run in this process without being asked again.
    func isScheduled(_ record: DownloadRecord) -> Bool {
        record.download.state == .waiting
            && (configuration.startsAutomatically || requested.contains(record.download.id))
    }

    mutating func started(_ id: String, _ task: Task<Void, Never>) { running[id] = task }

    mutating func ended(_ id: String) {
        running[id] = nil
        stopRequests[id] = nil
    }

    mutating func request(_ id: String) {
        stopRequests[id] = nil
        requested.insert(id)
    }

    mutating func forget(_ id: String) {
        running[id] = nil
        requested.remove(id)
    }

    /// Asks a running download to stop as `state` at its next chunk.
    mutating func askToStop(_ id: String, as state: DownloadState) {
        stopRequests[id] = state
        running[id]?.cancel()
    }

    // MARK: - Waiting

    /// A token for the next waiter, so that it can be taken back (`removeWaiter`).
    mutating func takeWaiterToken() -> Int {
        lastWaiterToken += 1
        return lastWaiterToken
    }

    mutating func addWaiter(_ id: String, token: Int, _ waiter: CheckedContinuation<Download, Never>) {
        waiters[id, default: []].append((token, waiter))
    }

    /// Takes back the waiter with `token` (its task was cancelled), if it still waits.
    mutating func removeWaiter(_ id: String, token: Int) -> CheckedContinuation<Download, Never>? {
        guard let index = waiters[id]?.firstIndex(where: { $0.token == token }) else { return nil }
        return waiters[id]?.remove(at: index).continuation
    }

    /// Resumes everyone waiting for `download` to settle.
    mutating func settle(_ download: Download) {
        for waiter in waiters.removeValue(forKey: download.id) ?? [] { waiter.continuation.resume(returning: download) }
    }

    // MARK: - Leases

    /// Takes the lease of download `id` without waiting.
    /// - Returns: the lease, `nil` when another process holds it.
    func tryLease(_ id: String) throws(SystemCallError) -> OpenFile? {
        try fs.createDirectories(paths.locksDirectory)
        return try fs.tryLease(paths.lock(id))
    }

    /// Whether another process holds download `id`'s lease (its lock file exists and is held).
    func isLeasedElsewhere(_ id: String) -> Bool {
        if let free = try? fs.tryLease(paths.lock(id)) {
            fs.release(free)
            return false
        }
        return fs.exists(paths.lock(id))
    }

    /// Takes download `id`'s lease for a run in this process, kept until `releaseLease(id)`.
    /// Without a lease file (an unwritable directory) it runs anyway and reports the real error.
    /// - Returns: false when another process runs it (it is then no longer running here).
    mutating func claim(_ id: String) -> Bool {
        let lease: OpenFile?
        do {
            guard let taken = try tryLease(id) else {
                forget(id)
                return false
            }
            lease = taken
        } catch {
            lease = nil
        }
        leases[id] = lease
        return true
    }

    mutating func releaseLease(_ id: String) {
        if let lease = leases.removeValue(forKey: id) ?? nil { fs.release(lease) }
    }

    /// Releases every lease, as the kernel does when the process dies.
    mutating func releaseAllLeases() {
        for case let lease? in leases.values { fs.release(lease) }
        leases.removeAll()
    }

    /// Releases a lease taken outside a run (`pause`, `cancel` of a download nobody runs).
    func release(_ lease: OpenFile) { fs.release(lease) }
}
