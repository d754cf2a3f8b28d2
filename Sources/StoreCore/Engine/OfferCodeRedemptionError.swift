import Foundation

/// Why redeeming an offer code did not give a verified transaction (`Store.redeem(offerCode:options:)`),
/// with the transaction the store made when it made one.
public enum OfferCodeRedemptionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store refused the code or the purchase failed: an unknown code
    /// (`StoreError.invalidOfferIdentifier`), one redeemed already or not for this customer
    /// (`StoreError.ineligibleForOffer`), or any purchase failure.
    case failed(StoreError, Transaction?)
    /// The customer or an approver cancelled.
    case cancelled(Transaction?)
    /// The redemption waits for approval (Ask to Buy) or for an interruption to be resolved;
    /// its outcome arrives on `Store.transactionUpdates()` and to observers.
    case pending(Transaction)
    /// Charged, but its verification could not complete; the engine keeps the order and
    /// verifies it again (`Store.unverifiedOrders()`).
    case unverified(UnverifiedOrder)
    /// The calling task was cancelled before the outcome was known; a code the store took is
    /// delivered once, later.
    case taskCancelled(Transaction?)

    /// The transaction, when the store made one.
    public var transaction: Transaction? {
        switch self {
        case .failed(_, let transaction), .cancelled(let transaction), .taskCancelled(let transaction): transaction
        case .pending(let transaction): transaction
        case .unverified(let order): order.transaction
        }
    }

    /// The purchase outcome the redemption was, for code that reports any purchase.
    public var purchaseResult: PurchaseResult {
        switch self {
        case .failed(let error, let transaction): .failed(error, transaction)
        case .cancelled(let transaction): .cancelled(transaction)
        case .pending(let transaction): .pending(transaction)
        case .unverified(let order): .unverified(order)
        case .taskCancelled(let transaction): .taskCancelled(transaction)
        }
    }

    /// Why, in words.
    public var description: String {
        switch self {
        case .failed(let error, _): "the code was not redeemed: \(error.description)"
        case .cancelled: "the redemption was cancelled"
        case .pending(let transaction):
            "the redemption (transaction \(transaction.transactionID)) waits for approval; it arrives on the transaction updates"
        case .unverified(let order):
            "the redemption (transaction \(order.transaction.transactionID)) was charged but could not be verified yet: \(order.lastFailure)"
        case .taskCancelled: "the task was cancelled before the redemption's outcome was known"
        }
    }
}

extension OfferCodeRedemptionError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
