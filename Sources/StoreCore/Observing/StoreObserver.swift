import Foundation

/// Receives the engine's events, as RMStore's `RMStoreObserver` does. Every method has a
/// default that does nothing: implement only what you need. Called on the engine's executor,
/// not the main actor: a `@MainActor` type listens to `Store.events()` from a main-actor task
/// instead (the StoreCore guide, "Observing the Store").
public protocol StoreObserver: AnyObject, Sendable {
    /// A products request answered.
    func storeProductsRequestFinished(_ response: ProductsResponse)
    /// A products request failed.
    func storeProductsRequestFailed(_ error: StoreError)
    /// A purchased or restored transaction was verified, recorded and delivered.
    func storePaymentTransactionFinished(_ transaction: Transaction)
    /// A payment failed, was cancelled, was rejected by verification or could not be recorded.
    func storePaymentTransactionFailed(_ transaction: Transaction, error: StoreError)
    /// A payment waits for approval (Ask to Buy) or for an interruption to be resolved.
    func storePaymentTransactionDeferred(_ transaction: Transaction)
    /// The customer was charged but verification could not complete; the order is kept and
    /// verified again later.
    func storePaymentTransactionUnverified(_ order: UnverifiedOrder)
    /// A restore finished with the restored transactions.
    func storeRestoreTransactionsFinished(_ transactions: [Transaction])
    /// A restore failed.
    func storeRestoreTransactionsFailed(_ error: StoreError)
    /// A receipt refresh finished with the new receipt.
    func storeRefreshReceiptFinished(_ receipt: Data)
    /// A receipt refresh failed.
    func storeRefreshReceiptFailed(_ error: StoreError)
    /// A delivered transaction was refunded or revoked.
    func storeTransactionRevoked(_ transaction: Transaction)
    /// A subscription group changed state.
    func storeSubscriptionStatusChanged(_ status: SubscriptionStatus)
    /// A hosted-content download started or made progress.
    func storeDownloadUpdated(_ download: Download)
    /// A download was verified and installed (`download.contentPath`).
    func storeDownloadFinished(_ download: Download)
    /// A download failed (`download.error`); its transaction stays unfinished and retryable.
    func storeDownloadFailed(_ download: Download)
    /// A download was paused.
    func storeDownloadPaused(_ download: Download)
    /// A download was cancelled; its transaction stays unfinished and retryable.
    func storeDownloadCanceled(_ download: Download)
    /// The account's storefront changed.
    func storeStorefrontChanged(_ storefront: Storefront)
    /// A refund request the app made was approved or declined.
    func storeRefundRequestDecided(_ decision: RefundDecision)
}

extension StoreObserver {
    /// Does nothing by default.
    public func storeProductsRequestFinished(_ response: ProductsResponse) {}
    /// Does nothing by default.
    public func storeProductsRequestFailed(_ error: StoreError) {}
    /// Does nothing by default.
    public func storePaymentTransactionFinished(_ transaction: Transaction) {}
    /// Does nothing by default.
    public func storePaymentTransactionFailed(_ transaction: Transaction, error: StoreError) {}
    /// Does nothing by default.
    public func storePaymentTransactionDeferred(_ transaction: Transaction) {}
    /// Does nothing by default.
    public func storePaymentTransactionUnverified(_ order: UnverifiedOrder) {}
    /// Does nothing by default.
    public func storeRestoreTransactionsFinished(_ transactions: [Transaction]) {}
    /// Does nothing by default.
    public func storeRestoreTransactionsFailed(_ error: StoreError) {}
    /// Does nothing by default.
    public func storeRefreshReceiptFinished(_ receipt: Data) {}
    /// Does nothing by default.
    public func storeRefreshReceiptFailed(_ error: StoreError) {}
    /// Does nothing by default.
    public func storeTransactionRevoked(_ transaction: Transaction) {}
    /// Does nothing by default.
    public func storeSubscriptionStatusChanged(_ status: SubscriptionStatus) {}
    /// Does nothing by default.
    public func storeDownloadUpdated(_ download: Download) {}
    /// Does nothing by default.
    public func storeDownloadFinished(_ download: Download) {}
    /// Does nothing by default.
    public func storeDownloadFailed(_ download: Download) {}
    /// Does nothing by default.
    public func storeDownloadPaused(_ download: Download) {}
    /// Does nothing by default.
    public func storeDownloadCanceled(_ download: Download) {}
    /// Does nothing by default.
    public func storeStorefrontChanged(_ storefront: Storefront) {}
    /// Does nothing by default.
    public func storeRefundRequestDecided(_ decision: RefundDecision) {}
}

extension StoreEvent {
    /// Calls the observer method that matches this event.
    func deliver(to observer: any StoreObserver) {
        switch self {
        case .productsRequestFinished(let r): observer.storeProductsRequestFinished(r)
        case .productsRequestFailed(let e): observer.storeProductsRequestFailed(e)
        case .paymentFinished(let t): observer.storePaymentTransactionFinished(t)
        case .paymentFailed(let t, let e): observer.storePaymentTransactionFailed(t, error: e)
        case .paymentDeferred(let t): observer.storePaymentTransactionDeferred(t)
        case .paymentUnverified(let o): observer.storePaymentTransactionUnverified(o)
        case .restoreFinished(let ts): observer.storeRestoreTransactionsFinished(ts)
        case .restoreFailed(let e): observer.storeRestoreTransactionsFailed(e)
        case .refreshReceiptFinished(let d): observer.storeRefreshReceiptFinished(d)
        case .refreshReceiptFailed(let e): observer.storeRefreshReceiptFailed(e)
        case .transactionRevoked(let t): observer.storeTransactionRevoked(t)
        case .subscriptionStatusChanged(let s): observer.storeSubscriptionStatusChanged(s)
        case .downloadUpdated(let d): observer.storeDownloadUpdated(d)
        case .downloadFinished(let d): observer.storeDownloadFinished(d)
        case .downloadFailed(let d): observer.storeDownloadFailed(d)
        case .downloadPaused(let d): observer.storeDownloadPaused(d)
        case .downloadCanceled(let d): observer.storeDownloadCanceled(d)
        case .storefrontChanged(let s): observer.storeStorefrontChanged(s)
        case .refundRequestDecided(let d): observer.storeRefundRequestDecided(d)
        }
    }
}
