import Foundation

/// Receives the engine's events, as RMStore's `RMStoreObserver` does. Every method has a
/// default that does nothing: implement only what you need. Called on the engine's executor.
public protocol StoreObserver: AnyObject, Sendable {
    func storeProductsRequestFinished(_ response: ProductsResponse)
    func storeProductsRequestFailed(_ error: StoreError)
    func storePaymentTransactionFinished(_ transaction: Transaction)
    func storePaymentTransactionFailed(_ transaction: Transaction, error: StoreError)
    func storePaymentTransactionDeferred(_ transaction: Transaction)
    func storeRestoreTransactionsFinished(_ transactions: [Transaction])
    func storeRestoreTransactionsFailed(_ error: StoreError)
    func storeRefreshReceiptFinished(_ receipt: Data)
    func storeRefreshReceiptFailed(_ error: StoreError)
    func storeTransactionRevoked(_ transaction: Transaction)
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
}

extension StoreObserver {
    public func storeProductsRequestFinished(_ response: ProductsResponse) {}
    public func storeProductsRequestFailed(_ error: StoreError) {}
    public func storePaymentTransactionFinished(_ transaction: Transaction) {}
    public func storePaymentTransactionFailed(_ transaction: Transaction, error: StoreError) {}
    public func storePaymentTransactionDeferred(_ transaction: Transaction) {}
    public func storeRestoreTransactionsFinished(_ transactions: [Transaction]) {}
    public func storeRestoreTransactionsFailed(_ error: StoreError) {}
    public func storeRefreshReceiptFinished(_ receipt: Data) {}
    public func storeRefreshReceiptFailed(_ error: StoreError) {}
    public func storeTransactionRevoked(_ transaction: Transaction) {}
    public func storeSubscriptionStatusChanged(_ status: SubscriptionStatus) {}
    public func storeDownloadUpdated(_ download: Download) {}
    public func storeDownloadFinished(_ download: Download) {}
    public func storeDownloadFailed(_ download: Download) {}
    public func storeDownloadPaused(_ download: Download) {}
    public func storeDownloadCanceled(_ download: Download) {}
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
        }
    }
}
