import Foundation

/// One purchase as entitlement questions need it, whether it came from a transaction the
/// engine recorded or from an entry of a verified app receipt.
public struct PurchaseRecord: Hashable, Sendable {
    /// The product bought.
    public var productID: String
    /// The kind of product, when known (receipts of old apps may not say).
    public var productType: ProductType?
    /// The transaction's identifier.
    public var transactionID: String
    /// The first transaction of the purchase (the same across renewals and restores).
    public var originalTransactionID: String
    /// How many were bought.
    public var quantity: Int
    /// When the store charged (or restored, or renewed).
    public var purchaseDate: Date
    /// When the original transaction was charged.
    public var originalPurchaseDate: Date
    /// When a subscription period ends.
    public var expiresDate: Date?
    /// When Apple refunded or revoked it (a receipt's cancellation date).
    public var cancellationDate: Date?
    /// The subscription group, for auto-renewable subscriptions.
    public var subscriptionGroupID: String?
    /// Whether the customer upgraded within the group, ending this period.
    public var isUpgraded: Bool
    /// Whether the customer bought it or has it through Family Sharing.
    public var ownershipType: Transaction.OwnershipType
    /// Which payment of its 12-month commitment this is, for a monthly plan (receipts do not say).
    public var commitmentInfo: Transaction.CommitmentInfo?

    /// Creates a record.
    public init(
        productID: String, productType: ProductType?, transactionID: String,
        originalTransactionID: String, quantity: Int = 1, purchaseDate: Date,
        originalPurchaseDate: Date? = nil, expiresDate: Date? = nil, cancellationDate: Date? = nil,
        subscriptionGroupID: String? = nil, isUpgraded: Bool = false,
        ownershipType: Transaction.OwnershipType = .purchased, commitmentInfo: Transaction.CommitmentInfo? = nil
    ) {
        self.productID = productID
        self.productType = productType
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.quantity = quantity
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate ?? purchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.subscriptionGroupID = subscriptionGroupID
        self.isUpgraded = isUpgraded
        self.ownershipType = ownershipType
        self.commitmentInfo = commitmentInfo
    }

    /// The record of a transaction the engine delivered.
    public init(_ transaction: Transaction) {
        self.init(
            productID: transaction.productID, productType: transaction.productType,
            transactionID: transaction.transactionID,
            originalTransactionID: transaction.originalTransactionID, quantity: transaction.quantity,
            purchaseDate: transaction.purchaseDate, originalPurchaseDate: transaction.originalPurchaseDate,
            expiresDate: transaction.expiresDate, cancellationDate: transaction.revocationDate,
            subscriptionGroupID: transaction.subscriptionGroupID, isUpgraded: transaction.isUpgraded,
            ownershipType: transaction.ownershipType, commitmentInfo: transaction.commitmentInfo)
    }

    /// The record of an in-app entry of a verified receipt; `groups` maps product IDs to their
    /// subscription group (receipts do not carry it). Nil when the entry has no purchase date.
    public init?(_ entry: InAppPurchaseReceipt, groups: [String: String] = [:]) {
        guard let purchaseDate = entry.purchaseDate else { return nil }
        let type = entry.productType.flatMap(ProductType.init) ?? (entry.expiresDate != nil ? .autoRenewable : nil)
        self.init(
            productID: entry.productID, productType: type, transactionID: entry.transactionID,
            originalTransactionID: entry.originalTransactionID ?? entry.transactionID,
            quantity: Int(entry.quantity ?? 1), purchaseDate: purchaseDate,
            originalPurchaseDate: entry.originalPurchaseDate, expiresDate: entry.expiresDate,
            cancellationDate: entry.cancellationDate, subscriptionGroupID: groups[entry.productID])
    }
}
