import Foundation
import Receipts

/// One purchase as entitlement questions need it, whether it came from a transaction the
/// engine recorded or from an entry of a verified app receipt.
public struct PurchaseRecord: Hashable, Sendable {
    public var productID: String
    public var productType: ProductType?
    public var transactionID: String
    public var originalTransactionID: String
    public var quantity: Int
    public var purchaseDate: Date
    public var originalPurchaseDate: Date
    public var expiresDate: Date?
    /// When Apple refunded or revoked it (a receipt's cancellation date).
    public var cancellationDate: Date?
    public var subscriptionGroupID: String?
    public var isUpgraded: Bool

    public init(
        productID: String, productType: ProductType?, transactionID: String,
        originalTransactionID: String, quantity: Int = 1, purchaseDate: Date,
        originalPurchaseDate: Date? = nil, expiresDate: Date? = nil, cancellationDate: Date? = nil,
        subscriptionGroupID: String? = nil, isUpgraded: Bool = false
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
    }

    /// The record of a transaction the engine delivered.
    public init(_ transaction: Transaction) {
        self.init(
            productID: transaction.productID, productType: transaction.productType,
            transactionID: transaction.transactionID,
            originalTransactionID: transaction.originalTransactionID, quantity: transaction.quantity,
            purchaseDate: transaction.purchaseDate, originalPurchaseDate: transaction.originalPurchaseDate,
            expiresDate: transaction.expiresDate, cancellationDate: transaction.revocationDate,
            subscriptionGroupID: transaction.subscriptionGroupID, isUpgraded: transaction.isUpgraded)
    }

    /// The record of an in-app entry of a verified receipt; `groups` maps product IDs to their
    /// subscription group (receipts do not carry it). Nil when the entry has no purchase date.
    public init?(_ entry: InAppPurchaseReceipt, groups: [String: String] = [:]) {
        guard let purchaseDate = entry.purchaseDate else { return nil }
        let type: ProductType? = switch entry.productType {
        case .consumable?: .consumable
        case .nonConsumable?: .nonConsumable
        case .autoRenewableSubscription?: .autoRenewable
        case .nonRenewingSubscription?: .nonRenewing
        default: entry.expiresDate != nil ? .autoRenewable : nil
        }
        self.init(
            productID: entry.productID, productType: type, transactionID: entry.transactionID,
            originalTransactionID: entry.originalTransactionID ?? entry.transactionID,
            quantity: Int(entry.quantity ?? 1), purchaseDate: purchaseDate,
            originalPurchaseDate: entry.originalPurchaseDate, expiresDate: entry.expiresDate,
            cancellationDate: entry.cancellationDate, subscriptionGroupID: groups[entry.productID])
    }
}
