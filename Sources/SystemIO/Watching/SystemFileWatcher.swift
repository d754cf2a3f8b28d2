/// The file watcher processes run with: the operating system's file-change notification where
/// `SystemIO` knows one (inotify on Linux, `InotifyWatch`), else — or when the kernel refuses one
/// (out of inotify instances or watches) — `fallback`, which polls.
public struct SystemFileWatcher: FileWatcher {
    /// What watches when the system's notification cannot.
    public var fallback: PollingFileWatcher

    /// The system's watcher, falling back to `fallback`.
    /// - Parameter fallback: the polling watcher used where no notification can be had.
    public init(fallback: PollingFileWatcher = PollingFileWatcher()) {
        self.fallback = fallback
    }

    /// Whether this system has a file-change notification `SystemIO` uses.
    public static var notifies: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// Starts watching `entries` with the system's notification, else with `fallback`.
    /// - Parameter entries: what to watch.
    /// - Returns: the coalesced stream of their changes (see `FileWatcher`).
    public func watch(_ entries: [WatchedEntries]) -> AsyncStream<Void> {
        #if os(Linux)
            if let stream = try? InotifyWatch.start(entries) { return stream }
        #endif
        return fallback.watch(entries)
    }
}
