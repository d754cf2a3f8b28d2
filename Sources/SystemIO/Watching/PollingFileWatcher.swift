/// The portable fallback of `SystemFileWatcher`, for a system without a file-change
/// notification it knows (or when the kernel refuses one): every `interval` (slept by `sleep`), it
/// lists the watched directories and compares each matching entry's `stat` (inode, size, both
/// times) with the last look, and sends a change when any differs.
///
/// `stat` cannot see a close, so entries watched for `.closedByWriter` send a change at every
/// interval: their consumer then looks as often as a poller would, and misses nothing.
public struct PollingFileWatcher: FileWatcher {
    /// How long between two looks.
    public var interval: Duration
    /// Waits for a duration between two looks: `Task.sleep` by default; a test's clock
    /// (`ManualClock.sleep(for:)`) moves the looks when the test says.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Where the entries are listed and `stat`ed.
    public var fileSystem: any FileSystem

    /// A watcher that looks every `interval`.
    /// - Parameters:
    ///   - interval: how long between two looks.
    ///   - sleep: waits between two looks; `Task.sleep` by default, a test's clock otherwise.
    ///   - fileSystem: where the entries are listed and `stat`ed.
    public init(
        interval: Duration = .milliseconds(100),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        fileSystem: any FileSystem = POSIXFileSystem()
    ) {
        self.interval = interval
        self.sleep = sleep
        self.fileSystem = fileSystem
    }

    /// Starts looking at `entries` every interval (the first look, the baseline, now).
    /// - Parameter entries: what to watch.
    /// - Returns: the coalesced stream of their changes (see `FileWatcher`).
    public func watch(_ entries: [WatchedEntries]) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let everyLook = entries.contains { $0.changes.contains(.closedByWriter) }
        let baseline = signature(of: entries)
        let task = Task { [self] in
            var last = baseline
            while true {
                do {
                    try await sleep(interval)
                } catch {
                    return
                }
                let now = signature(of: entries)
                if everyLook || now != last { continuation.yield() }
                last = now
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Each watched directory's matching entries and what `stat` says of them (a directory that
    /// cannot be listed has none; an entry gone between listing and `stat` is left out).
    func signature(of entries: [WatchedEntries]) -> [String: [String: FileStatus]] {
        var signature: [String: [String: FileStatus]] = [:]
        for group in entries {
            let names = (try? fileSystem.contentsOfDirectory(group.directory)) ?? []
            for name in names where group.matches(name) {
                let status = try? fileSystem.status(atPath: group.directory + "/" + name, followingLinks: false)
                if let status { signature[group.directory, default: [:]][name] = status }
            }
        }
        return signature
    }
}
