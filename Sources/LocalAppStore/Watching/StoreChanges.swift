import Foundation
package import SystemIO

/// How a process hears that the shared store changed, whichever process changed it: the store's
/// files watched through a `FileWatcher` (the operating system's file-change notification), so
/// `storefront serve` and the storefront look again when something happened, not on a timer
/// (Docs/decisions/0140-file-change-notification-instead-of-polling.md).
///
/// Two things count, named as Docs/formats/journal.md names the files:
/// - `journal.jsonl` written, replaced or removed: every change a process makes is an append,
///   and a compaction renames a new journal into place;
/// - an owner lease, `owners/TOKEN.lock`, closed by its writer: the store instance holding it
///   ended (even by SIGKILL), so the `.purchasing` transactions it owned are left to adopt (a
///   store opened read-only adopts nothing, and does not watch them).
///
/// Nothing else counts: the archives and indexes change only with a journal write, and the
/// locks taken for each write (`store.lock`) and by the notification sender are opened and
/// closed by the watcher's own process too, which would wake it for its own attempts.
package struct StoreChanges: Sendable {
    /// The store's state directory.
    package let stateDirectory: URL
    /// Whether the ends of other store instances count (a store that may adopt their purchases).
    package let watchesOwners: Bool
    /// What watches its files.
    package let watcher: any FileWatcher

    /// The journal's file name in the state directory.
    static let journal = "journal.jsonl"
    /// The owner leases' directory in the state directory, and their files' extension.
    static let owners = "owners"
    static let leaseExtension = ".lock"

    /// Changes of the store `configuration` opens, heard through `watcher`.
    /// - Parameters:
    ///   - configuration: the store's configuration (its state directory; whether it is read-only).
    ///   - watcher: what watches the files; the system's file-change notification by default.
    package init(configuration: LocalAppStoreConfiguration, watcher: any FileWatcher = SystemFileWatcher()) {
        stateDirectory = configuration.stateDirectory
        watchesOwners = !configuration.readOnly
        self.watcher = watcher
    }

    /// Starts watching and returns the stream of changes: an element each time the store may
    /// have changed since the last one (changes are coalesced). Read the store after taking an
    /// element (`LocalAppStore.synchronize()`); watching starts before this returns, so a look
    /// made after the call misses nothing. Watching stops when the stream's consumer stops.
    /// - Returns: the coalesced stream of the store's changes.
    package func stream() -> AsyncStream<Void> {
        let directory = stateDirectory.path
        var entries = [WatchedEntries(directory, named: [Self.journal], changes: [.written])]
        if watchesOwners {
            entries.append(
                WatchedEntries(directory + "/" + Self.owners, changes: [.closedByWriter]) {
                    $0.hasSuffix(Self.leaseExtension)
                })
        }
        return watcher.watch(entries)
    }
}
