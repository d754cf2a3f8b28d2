import Synchronization

/// The failures the store's archives (the compacted history, the notification archive) meet
/// while one piece of work runs — one request of the App Store Server.
///
/// An archive's lookups answer nil when a frame or its index cannot be read, and keep the
/// first failure for the journal to refuse on (`StoreJournal.checked`); a long-running reader
/// of snapshots needs to know whether *its* reads met one, so that a damaged archive is an
/// error for the request that read it, never "not found" nor a shorter list, and not for every
/// later request. Lookups run under `watch(_:)` (on its task, the tasks it starts, or its thread)
/// report here as well, and so does the store when it refuses a change or an answer because
/// an earlier lookup failed (`StoreJournal.checked`).
public final class ArchiveReadWatch: Sendable {
    @TaskLocal static var current: ArchiveReadWatch?

    private let first = Mutex<LocalAppStoreError?>(nil)

    /// A watch that has seen nothing yet.
    public init() {}

    /// The first failure a lookup met under this watch (nil: none), with the file and what is
    /// wrong with it.
    public var failure: LocalAppStoreError? { first.withLock { $0 } }

    /// Runs `body`, reporting to this watch the failures the archives' lookups meet meanwhile.
    /// - Parameter body: the work watched.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public func watch<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self, operation: body)
    }

    /// Runs `body`, reporting to this watch the failures the archives' lookups meet meanwhile
    /// (in the store's actor too, which runs on the caller's task).
    /// - Parameters:
    ///   - isolation: the caller's actor, which `body` runs on.
    ///   - body: the work watched.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public func watch<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        try await Self.$current.withValue(self, operation: body)
    }

    /// Reports a failure a lookup met to the watch running, if any.
    static func report(_ error: LocalAppStoreError) {
        current?.first.withLock { if $0 == nil { $0 = error } }
    }
}
