import Foundation

/// Something the account has right now: a non-consumable, an active subscription, the latest
/// transaction of a non-renewing subscription (while the app's duration for it lasts, if it
/// sets one).
public struct Entitlement: Hashable, Sendable {
    /// The product the account has.
    public let productID: String
    /// The kind of product: non-consumable, auto-renewable or non-renewing.
    public let productType: ProductType
    /// The transaction that grants it (the latest renewal, for a subscription).
    public let transactionID: String
    /// The first transaction of the purchase (the same across renewals and restores).
    public let originalTransactionID: String
    /// When the granting transaction was charged (or restored).
    public let purchaseDate: Date
    /// When access ends, for subscriptions.
    public let expiresDate: Date?
    /// `active`, or for a subscription whose billing failed, `inGracePeriod`.
    public let state: SubscriptionStatus.State?
    /// The subscription group, for auto-renewable subscriptions.
    public let subscriptionGroupID: String?

    /// Creates an entitlement.
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
