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
        }
    }
}
