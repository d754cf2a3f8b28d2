import Foundation

/// Everything the engine reports, in one value: what observers, notifications and the event
/// stream all carry.
public enum StoreEvent: Sendable, Hashable {
    /// A products request answered: the products found and the identifiers the store does not sell.
    case productsRequestFinished(ProductsResponse)
    /// A products request failed.
    case productsRequestFailed(StoreError)
    /// A purchased or restored transaction was verified, recorded and delivered.
    case paymentFinished(Transaction)
    /// A payment failed, was cancelled, was rejected by verification or could not be recorded.
    /// One refused before the store made a transaction (an unknown product, a bad quantity, a
    /// payment the store would not queue) carries a transaction with an empty `transactionID`
    /// and the payment as the app asked for it.
    case paymentFailed(Transaction, StoreError)
    /// The payment waits for approval (Ask to Buy) or for an interruption to be resolved.
    case paymentDeferred(Transaction)
    /// The customer was charged but verification could not complete: the order is kept and
    /// verified again later (never a failure).
    case paymentUnverified(UnverifiedOrder)
    /// A restore finished with the restored transactions.
    case restoreFinished([Transaction])
    /// A restore failed.
    case restoreFailed(StoreError)
    /// A receipt refresh finished with the new receipt.
    case refreshReceiptFinished(Data)
    /// A receipt refresh failed.
    case refreshReceiptFailed(StoreError)
    /// A delivered transaction was refunded or revoked.
    case transactionRevoked(Transaction)
    /// A subscription group changed state: renewed, expired, entered billing retry or grace,
    /// recovered, revoked.
    case subscriptionStatusChanged(SubscriptionStatus)
    /// A hosted-content download started or made progress.
    case downloadUpdated(Download)
    /// A download was verified and installed.
    case downloadFinished(Download)
    /// A download failed; `Download.error` says why.
    case downloadFailed(Download)
    /// A download was paused.
    case downloadPaused(Download)
    /// A download was cancelled.
    case downloadCanceled(Download)
    /// The account's storefront changed (StoreKit 2's `Storefront.updates`).
    case storefrontChanged(Storefront)
    /// A refund request the app made was approved or declined.
    case refundRequestDecided(RefundDecision)

    /// The transaction this event is about, if it is about one (an unverified order's too).
    public var transaction: Transaction? {
        switch self {
        case .paymentFinished(let t), .paymentFailed(let t, _), .paymentDeferred(let t), .transactionRevoked(let t): t
        case .paymentUnverified(let order): order.transaction
        default: nil
        }
    }

    /// The identifier of the transaction this event is about: a payment's, or the one a
    /// download belongs to.
    public var transactionID: String? {
        if let download { return download.transactionID }
        return transaction.map(\.transactionID)
    }

    /// The identifier of the product this event is about: a payment's or a download's.
    public var productID: String? {
        if let download { return download.productID }
        return transaction.map(\.productID)
    }

    /// The error this event reports, if it reports one.
    public var error: StoreError? {
        switch self {
        case .productsRequestFailed(let e), .paymentFailed(_, let e), .restoreFailed(let e),
            .refreshReceiptFailed(let e):
            e
        default: nil
        }
    }

    /// The download this event is about, if it is about one.
    public var download: Download? {
        switch self {
        case .downloadUpdated(let d), .downloadFinished(let d), .downloadFailed(let d), .downloadPaused(let d),
            .downloadCanceled(let d):
            d
        default: nil
        }
    }
}
