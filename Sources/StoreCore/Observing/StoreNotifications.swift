import Foundation

extension Notification.Name {
    public static let storeProductsRequestFinished = Notification.Name("StoreProductsRequestFinished")
    public static let storeProductsRequestFailed = Notification.Name("StoreProductsRequestFailed")
    public static let storePaymentTransactionFinished = Notification.Name("StorePaymentTransactionFinished")
    public static let storePaymentTransactionFailed = Notification.Name("StorePaymentTransactionFailed")
    public static let storePaymentTransactionDeferred = Notification.Name("StorePaymentTransactionDeferred")
    public static let storeRestoreTransactionsFinished = Notification.Name("StoreRestoreTransactionsFinished")
    public static let storeRestoreTransactionsFailed = Notification.Name("StoreRestoreTransactionsFailed")
    public static let storeRefreshReceiptFinished = Notification.Name("StoreRefreshReceiptFinished")
    public static let storeRefreshReceiptFailed = Notification.Name("StoreRefreshReceiptFailed")
    public static let storeTransactionRevoked = Notification.Name("StoreTransactionRevoked")
    public static let storeSubscriptionStatusChanged = Notification.Name("StoreSubscriptionStatusChanged")
    public static let storeDownloadUpdated = Notification.Name("StoreDownloadUpdated")
    public static let storeDownloadFinished = Notification.Name("StoreDownloadFinished")
    public static let storeDownloadFailed = Notification.Name("StoreDownloadFailed")
    public static let storeDownloadPaused = Notification.Name("StoreDownloadPaused")
    public static let storeDownloadCanceled = Notification.Name("StoreDownloadCanceled")

    /// Every name the engine posts under.
    public static let allStoreNotifications: [Notification.Name] = [
        .storeProductsRequestFinished, .storeProductsRequestFailed,
        .storePaymentTransactionFinished, .storePaymentTransactionFailed,
        .storePaymentTransactionDeferred, .storeRestoreTransactionsFinished,
        .storeRestoreTransactionsFailed, .storeRefreshReceiptFinished, .storeRefreshReceiptFailed,
        .storeTransactionRevoked, .storeSubscriptionStatusChanged,
        .storeDownloadUpdated, .storeDownloadFinished, .storeDownloadFailed, .storeDownloadPaused,
        .storeDownloadCanceled,
    ]
}

/// The key under which a store notification's `userInfo` carries its `StoreEvent`.
public let storeEventUserInfoKey = "StoreEvent"

extension Notification {
    /// The engine event this notification carries.
    public var storeEvent: StoreEvent? { userInfo?[storeEventUserInfoKey] as? StoreEvent }
    /// The transaction of a payment notification.
    public var storeTransaction: Transaction? { storeEvent?.transaction }
    /// The download of a download notification.
    public var storeDownload: Download? { storeEvent?.download }
    /// The error of a failure notification.
    public var storeError: StoreError? { storeEvent?.error }
    /// The products of a finished products request.
    public var storeProducts: [Product]? {
        if case .productsRequestFinished(let r)? = storeEvent { return r.products }
        return nil
    }
    /// The identifiers a finished products request found invalid.
    public var storeInvalidProductIdentifiers: [String]? {
        if case .productsRequestFinished(let r)? = storeEvent { return r.invalidProductIdentifiers }
        return nil
    }
    /// The transactions of a finished restore.
    public var storeTransactions: [Transaction]? {
        if case .restoreFinished(let ts)? = storeEvent { return ts }
        return nil
    }
    /// The subscription status of a status-change notification.
    public var storeSubscriptionStatus: SubscriptionStatus? {
        if case .subscriptionStatusChanged(let s)? = storeEvent { return s }
        return nil
    }
    /// The receipt of a finished refresh.
    public var storeReceipt: Data? {
        if case .refreshReceiptFinished(let d)? = storeEvent { return d }
        return nil
    }
}
