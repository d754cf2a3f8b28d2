import StoreCore

/// One transaction as the store keeps it: the transaction plus the store's own bookkeeping.
struct QueueEntry: Codable, Hashable, Sendable {
    /// The transaction as the engine sees it.
    var transaction: Transaction
    /// The account it belongs to.
    var accountID: String
    /// Whether the account was charged for it (at most once, by transaction ID).
    var charged: Bool
    /// Whether the engine finished it (it left the queue; it stays in the history).
    var finished: Bool
    /// What a deferred transaction waits for.
    var pending: PendingReason?
    /// The instance processing a `.purchasing` transaction (see `OwnerLease`).
    var owner: String?

    var id: String { transaction.transactionID }
}
