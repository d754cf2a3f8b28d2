import StoreCore

/// A deferred transaction and what it waits for, as the transaction manager lists it.
public struct PendingTransaction: Hashable, Sendable {
    /// The transaction, in state `.deferred`.
    public let transaction: Transaction
    /// What it waits for: `approve`/`decline` (Ask to Buy) or `resolve` (interrupted).
    public let reason: PendingReason
}
