import Foundation

extension Notification.Name {
    /// Posted when a products request answered; `storeProducts` and
    /// `storeInvalidProductIdentifiers` read it.
    public static let storeProductsRequestFinished = Notification.Name("StoreProductsRequestFinished")
    /// Posted when a products request failed; `storeError` says why.
    public static let storeProductsRequestFailed = Notification.Name("StoreProductsRequestFailed")
    /// Posted when a purchased or restored transaction was verified, recorded and delivered.
    public static let storePaymentTransactionFinished = Notification.Name("StorePaymentTransactionFinished")
    /// Posted when a payment failed or was cancelled; `storeError` says why.
    public static let storePaymentTransactionFailed = Notification.Name("StorePaymentTransactionFailed")
    /// Posted when a payment waits for approval (Ask to Buy) or for an interruption to be resolved.
    public static let storePaymentTransactionDeferred = Notification.Name("StorePaymentTransactionDeferred")
    /// Posted when the customer was charged but verification could not complete;
    /// `storeUnverifiedOrder` carries the kept order.
    public static let storePaymentTransactionUnverified = Notification.Name("StorePaymentTransactionUnverified")
    /// Posted when a restore finished; `storeTransactions` carries the restored transactions.
    public static let storeRestoreTransactionsFinished = Notification.Name("StoreRestoreTransactionsFinished")
    /// Posted when a restore failed; `storeError` says why.
    public static let storeRestoreTransactionsFailed = Notification.Name("StoreRestoreTransactionsFailed")
    /// Posted when a receipt refresh finished; `storeReceipt` carries the receipt.
    public static let storeRefreshReceiptFinished = Notification.Name("StoreRefreshReceiptFinished")
    /// Posted when a receipt refresh failed; `storeError` says why.
    public static let storeRefreshReceiptFailed = Notification.Name("StoreRefreshReceiptFailed")
    /// Posted when a delivered transaction was refunded or revoked.
    public static let storeTransactionRevoked = Notification.Name("StoreTransactionRevoked")
    /// Posted when a subscription group changed state; `storeSubscriptionStatus` carries it.
    public static let storeSubscriptionStatusChanged = Notification.Name("StoreSubscriptionStatusChanged")
    /// Posted when a hosted-content download started or made progress; `storeDownload` carries it.
    public static let storeDownloadUpdated = Notification.Name("StoreDownloadUpdated")
    /// Posted when a download was verified and installed.
    public static let storeDownloadFinished = Notification.Name("StoreDownloadFinished")
    /// Posted when a download failed.
    public static let storeDownloadFailed = Notification.Name("StoreDownloadFailed")
    /// Posted when a download was paused.
    public static let storeDownloadPaused = Notification.Name("StoreDownloadPaused")
    /// Posted when a download was cancelled.
    public static let storeDownloadCanceled = Notification.Name("StoreDownloadCanceled")
    /// Posted when the account's storefront changed; `storeStorefront` carries the new one.
    public static let storeStorefrontChanged = Notification.Name("StoreStorefrontChanged")
    /// Posted when a refund request the app made was approved or declined;
    /// `storeRefundDecision` carries the decision.
    public static let storeRefundRequestDecided = Notification.Name("StoreRefundRequestDecided")

    /// Every name the engine posts under.
    public static let allStoreNotifications: [Notification.Name] = [
        .storeProductsRequestFinished, .storeProductsRequestFailed,
        .storePaymentTransactionFinished, .storePaymentTransactionFailed,
        .storePaymentTransactionDeferred, .storePaymentTransactionUnverified, .storeRestoreTransactionsFinished,
        .storeRestoreTransactionsFailed, .storeRefreshReceiptFinished, .storeRefreshReceiptFailed,
        .storeTransactionRevoked, .storeSubscriptionStatusChanged,
        .storeDownloadUpdated, .storeDownloadFinished, .storeDownloadFailed, .storeDownloadPaused,
        .storeDownloadCanceled, .storeStorefrontChanged, .storeRefundRequestDecided,
    ]
}

extension StoreEvent {
    /// The notification name this event is posted under.
    public var notificationName: Notification.Name {
        switch self {
        case .productsRequestFinished: .storeProductsRequestFinished
        case .productsRequestFailed: .storeProductsRequestFailed
        case .paymentFinished: .storePaymentTransactionFinished
        case .paymentFailed: .storePaymentTransactionFailed
        case .paymentDeferred: .storePaymentTransactionDeferred
        case .paymentUnverified: .storePaymentTransactionUnverified
        case .restoreFinished: .storeRestoreTransactionsFinished
        case .restoreFailed: .storeRestoreTransactionsFailed
        case .refreshReceiptFinished: .storeRefreshReceiptFinished
        case .refreshReceiptFailed: .storeRefreshReceiptFailed
        case .transactionRevoked: .storeTransactionRevoked
        case .subscriptionStatusChanged: .storeSubscriptionStatusChanged
        case .downloadUpdated: .storeDownloadUpdated
        case .downloadFinished: .storeDownloadFinished
        case .downloadFailed: .storeDownloadFailed
        case .downloadPaused: .storeDownloadPaused
        case .downloadCanceled: .storeDownloadCanceled
        case .storefrontChanged: .storeStorefrontChanged
        case .refundRequestDecided: .storeRefundRequestDecided
        }
    }
}

/// The key under which a store notification's `userInfo` carries its `StoreEvent`.
public let storeEventUserInfoKey = "StoreEvent"

/// The key under which a download notification's `userInfo` carries the `Transaction` the
/// download belongs to, when this process delivered it.
public let storeTransactionUserInfoKey = "StoreTransaction"

extension Notification {
    /// The engine event this notification carries.
    public var storeEvent: StoreEvent? { userInfo?[storeEventUserInfoKey] as? StoreEvent }
    /// The transaction of a payment notification, or of the purchase a download notification
    /// belongs to (when this process delivered it).
    public var storeTransaction: Transaction? {
        storeEvent?.transaction ?? userInfo?[storeTransactionUserInfoKey] as? Transaction
    }
    /// The transaction identifier of a payment or download notification.
    public var storeTransactionID: String? { storeEvent?.transactionID }
    /// The product identifier of a payment or download notification.
    public var storeProductID: String? { storeEvent?.productID }
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
    /// The kept order of an unverified-payment notification.
    public var storeUnverifiedOrder: UnverifiedOrder? {
        if case .paymentUnverified(let order)? = storeEvent { return order }
        return nil
    }
    /// The subscription status of a status-change notification.
    public var storeSubscriptionStatus: SubscriptionStatus? {
        if case .subscriptionStatusChanged(let s)? = storeEvent { return s }
        return nil
    }
    /// The decision of a refund-request notification.
    public var storeRefundDecision: RefundDecision? {
        if case .refundRequestDecided(let d)? = storeEvent { return d }
        return nil
    }
    /// The new storefront of a storefront-change notification.
    public var storeStorefront: Storefront? {
        if case .storefrontChanged(let s)? = storeEvent { return s }
        return nil
    }
    /// The receipt of a finished refresh.
    public var storeReceipt: Data? {
        if case .refreshReceiptFinished(let d)? = storeEvent { return d }
        return nil
    }
}
