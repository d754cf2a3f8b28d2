/// How a purchase ended, as StoreKit 2's `Product.PurchaseResult` shapes it.
public enum PurchaseResult: Sendable, Hashable {
    /// Charged, verified, recorded and delivered.
    case purchased(Transaction)
    /// Waiting for approval (Ask to Buy) or for an interruption to be resolved; the outcome
    /// arrives later on `transactionUpdates()` and to observers.
    case pending(Transaction)
    /// Charged, but its verification could not complete (the verifier's server unreachable):
    /// kept as an unverified order, verified again at each `start()`, listed by
    /// `Store.unverifiedOrders()`, retried by `retryUnverifiedOrder(transactionID:)` and given up by
    /// `removeUnverifiedOrder(transactionID:)`. Never a failure: the customer paid.
    case unverified(UnverifiedOrder)
    /// The user (or an approver) cancelled.
    case cancelled(Transaction?)
    /// The task that called `purchase` was cancelled before the outcome was known. A payment
    /// the store already queued goes on: it is delivered once, on `transactionUpdates()` or by
    /// the next `start()`.
    case taskCancelled(Transaction?)
    /// The purchase failed; the error says why.
    case failed(StoreError, Transaction?)

    /// The transaction, when the store made one.
    public var transaction: Transaction? {
        switch self {
        case .purchased(let t), .pending(let t): t
        case .unverified(let order): order.transaction
        case .cancelled(let t), .taskCancelled(let t), .failed(_, let t): t
        }
    }

    /// A short name of the outcome: `purchased`, `pending`, `unverified`, `cancelled`,
    /// `taskCancelled` or `failed`.
    public var state: String {
        switch self {
        case .purchased: "purchased"
        case .pending: "pending"
        case .unverified: "unverified"
        case .cancelled: "cancelled"
        case .taskCancelled: "taskCancelled"
        case .failed: "failed"
        }
    }
}
