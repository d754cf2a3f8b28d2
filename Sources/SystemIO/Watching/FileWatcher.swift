/// Tells its consumer when files it cares about change, whoever changes them (this process or
/// another), so that the consumer looks again then instead of on a timer.
///
/// A watch is an `AsyncStream<Void>`: each element means "something watched changed since you
/// last took one" (changes are coalesced, the newest kept), so a consumer that takes an element
/// and then reads the files has seen every change made before that element was sent. Watching
/// starts before `watch` returns; it stops when the consumer stops iterating (its task is
/// cancelled) or drops the stream. `SystemFileWatcher` is the production one: the operating
/// system's file-change notification (inotify on Linux), else `PollingFileWatcher`.
public protocol FileWatcher: Sendable {
    /// Starts watching `entries` and returns the stream of their changes.
    /// - Parameter entries: what to watch, one directory each (a directory may appear twice).
    /// - Returns: an element each time a watched change happened since the last element.
    func watch(_ entries: [WatchedEntries]) -> AsyncStream<Void>
}

/// Entries of one directory, and which of their changes count.
public struct WatchedEntries: Sendable {
    /// What happens to an entry.
    public enum Change: Sendable, Hashable {
        /// Its contents or its identity changed: written, truncated, created, renamed into or
        /// out of the directory, removed.
        case written
        /// A process that had it open for writing closed it, by choice or by ending (even by
        /// SIGKILL): how a lease's holder going away shows. Closes by readers do not count,
        /// so a consumer that opens files to read them does not wake itself.
        case closedByWriter
    }

    /// The directory's path.
    public var directory: String
    /// The changes that count.
    public var changes: Set<Change>
    /// Which entries, by name, count.
    public var matches: @Sendable (String) -> Bool

    /// Entries of `directory` chosen by `matches`, whose `changes` count.
    /// - Parameters:
    ///   - directory: the directory's path (it must exist when the watch starts).
    ///   - changes: the changes that count.
    ///   - matches: whether an entry's name counts.
    public init(
        _ directory: String, changes: Set<Change> = [.written], matching matches: @escaping @Sendable (String) -> Bool
    ) {
        self.directory = directory
        self.changes = changes
        self.matches = matches
    }

    /// The entries of `directory` named in `names`.
    /// - Parameters:
    ///   - directory: the directory's path.
    ///   - names: the entries' names.
    ///   - changes: the changes that count.
    public init(_ directory: String, named names: Set<String>, changes: Set<Change> = [.written]) {
        self.init(directory, changes: changes) { names.contains($0) }
    }
}
