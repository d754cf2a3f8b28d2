import Synchronization

/// Every transaction ID of a journal state by position, in the order the IDs were handed out
/// (numeric order; IDs that are not numbers after them): the compacted history's IDs (the
/// index's sorted `entries` table) merged with the few the history does not hold.
///
/// A position names the same transaction for as long as the store lives, compactions
/// included: new transactions get higher IDs, so they only ever add positions at the end.
/// Reading a position reads a page of each run of the history's index; reading the one
/// before or after the last one read (a walk through the positions, as a history page is)
/// steps from it instead of finding it anew.
struct JournalOrder {
    private let history: JournalHistory?
    private let historyCount: Int
    /// The IDs the history does not hold, sorted, each with its position.
    private let fresh: [(id: String, position: Int)]
    /// The history's rank and key read last.
    private let cursor = Cursor()

    private final class Cursor: Sendable {
        let last = Mutex<(rank: Int, key: UInt64)?>(nil)
    }

    init(history: JournalHistory?, fresh ids: [String]) {
        self.history = history
        historyCount = history?.count ?? 0
        let sorted = ids.sorted(by: JournalState.precedes)
        var fresh: [(id: String, position: Int)] = []
        fresh.reserveCapacity(sorted.count)
        for (index, id) in sorted.enumerated() {
            // The history's IDs below this one come before it, and so do the fresh ones.
            let below = UInt64(id).map { history?.rank(of: $0) ?? 0 } ?? historyCount
            fresh.append((id, index + below))
        }
        self.fresh = fresh
    }

    /// The number of positions.
    var count: Int { historyCount + fresh.count }

    /// The transaction ID at `position` (`0..<count`).
    subscript(position: Int) -> String {
        // How many fresh IDs come before the position (binary search on their positions).
        let low = fresh.partitionPoint { $0.position < position }
        if low < fresh.count, fresh[low].position == position { return fresh[low].id }
        return historyKey(at: position - low).map(String.init) ?? ""
    }

    /// The history's key at `rank`: a step from the last one read when it is next to it.
    private func historyKey(at rank: Int) -> UInt64? {
        guard let history else { return nil }
        let last = cursor.last.withLock { $0 }
        var key: UInt64?
        if let last, last.rank == rank {
            key = last.key
        } else if let last, last.rank + 1 == rank {
            key = history.key(after: last.key)
        } else if let last, last.rank - 1 == rank {
            key = history.key(before: last.key)
        } else {
            key = history.identifier(at: rank)
        }
        if let key { cursor.last.withLock { $0 = (rank, key) } }
        return key
    }
}
