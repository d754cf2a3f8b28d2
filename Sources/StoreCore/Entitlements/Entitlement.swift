import Foundation

/// Something the account has right now: a non-consumable, an active subscription, an unexpired
/// non-renewing subscription.
public struct Entitlement: Hashable, Sendable {
    public let productID: String
    public let productType: ProductType
    /// The transaction that grants it (the latest renewal, for a subscription).
    public let transactionID: String
    public let originalTransactionID: String
    public let purchaseDate: Date
    /// When access ends, for subscriptions.
    public let expiresDate: Date?
    /// `active`, or for a subscription whose billing failed, `inGracePeriod`.
    public let state: SubscriptionStatus.State?
    public let subscriptionGroupID: String?

    public init(
        productID: String, productType: ProductType, transactionID: String, originalTransactionID: String,
        purchaseDate: Date, expiresDate: Date?, state: SubscriptionStatus.State?, subscriptionGroupID: String?
    ) {
        self.productID = productID
        self.productType = productType
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.state = state
        self.subscriptionGroupID = subscriptionGroupID
    }
}
