/// How a purchase ended, as StoreKit 2's `Product.PurchaseResult` shapes it.
public enum PurchaseResult: Sendable, Hashable {
    /// Charged, verified, recorded and delivered.
    case purchased(Transaction)
    /// Waiting for approval (Ask to Buy) or for an interruption to be resolved; the outcome
    /// arrives later on `transactionUpdates()` and to observers.
    case pending(Transaction)
    /// The user (or an approver) cancelled.
    case cancelled(Transaction?)
    /// The purchase failed; the error says why.
    case failed(StoreError, Transaction?)

    /// The transaction, when the store made one.
    public var transaction: Transaction? {
        switch self {
        case .purchased(let t), .pending(let t): t
        case .cancelled(let t), .failed(_, let t): t
        }
    }

    /// A short name of the outcome: `purchased`, `pending`, `cancelled` or `failed`.
    public var state: String {
        switch self {
        case .purchased: "purchased"
        case .pending: "pending"
        case .cancelled: "cancelled"
        case .failed: "failed"
        }
    }
}
