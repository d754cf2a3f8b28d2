import Foundation
import StoreCore

/// The store's event streams: every `events()` caller's continuation, and what the store
/// sends them when its journal changes.
///
/// `announcement(of:accountID:)` is the rule (pure): a finished entry is sent as removed,
/// any other as updated, except `.purchasing` ones, which are never announced; other
/// accounts' entries are not sent. The owner (the `LocalAppStore` actor) signs the updated
/// transactions and serializes calls.
struct EventFanOut {
    private var listeners: [UUID: AsyncStream<BackendEvent>.Continuation] = [:]

    /// Whether no stream listens (then there is nothing to sign or send).
    var isEmpty: Bool { listeners.isEmpty }

    /// Makes a new stream; `onTermination` is called with its key when its reader goes away.
    mutating func makeStream(
        onTermination: @escaping @Sendable (UUID) -> Void
    ) -> (stream: AsyncStream<BackendEvent>, continuation: AsyncStream<BackendEvent>.Continuation) {
        let (stream, continuation) = AsyncStream<BackendEvent>.makeStream()
        let id = UUID()
        listeners[id] = continuation
        continuation.onTermination = { _ in onTermination(id) }
        return (stream, continuation)
    }

    /// Forgets the stream `id` (its reader went away).
    mutating func remove(_ id: UUID) {
        listeners[id] = nil
    }

    /// Sends `event` on every stream.
    func send(_ event: BackendEvent) {
        for continuation in listeners.values { continuation.yield(event) }
    }

    /// Sends `updated` then `removed` on every stream, each only when not empty.
    func send(updated: [StoreCore.Transaction], removed: [String]) {
        for continuation in listeners.values {
            if !updated.isEmpty { continuation.yield(.transactionsUpdated(updated)) }
            if !removed.isEmpty { continuation.yield(.transactionsRemoved(removed)) }
        }
    }

    /// Ends every stream.
    func finishAll() {
        for continuation in listeners.values { continuation.finish() }
    }

    /// What telling `accountID`'s streams about `changed` sends: the transactions of its
    /// unfinished entries that are not `.purchasing` as updated, its finished entries' IDs as
    /// removed, in `changed`'s order.
    static func announcement(
        of changed: [QueueEntry], accountID: String
    ) -> (updated: [StoreCore.Transaction], removed: [String]) {
        var updated: [StoreCore.Transaction] = []
        var removed: [String] = []
        for entry in changed where entry.accountID == accountID {
            if entry.finished {
                removed.append(entry.id)
            } else if entry.transaction.state != .purchasing {
                updated.append(entry.transaction)
            }
        }
        return (updated, removed)
    }

    /// The transactions of `accountID`'s finished entries among `changed`: revised versions
    /// (a refund, an early expiry) that are sent as updates too, so the app sees them.
    static func revisions(in changed: [QueueEntry], accountID: String) -> [StoreCore.Transaction] {
        changed.filter { $0.finished && $0.accountID == accountID }.map(\.transaction)
    }
}
