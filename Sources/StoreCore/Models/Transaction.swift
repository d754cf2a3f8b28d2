import Foundation

/// A payment's record in the store's queue and, once delivered, in the app's ledger.
public struct Transaction: Codable, Hashable, Sendable, Identifiable {
    /// A numeric string, increasing, never reused.
    public let transactionID: String
    /// The first transaction of this purchase: itself, or the one a restore or renewal continues.
    public let originalTransactionID: String
    public let productID: String
    public let productType: ProductType
    /// The payment that made this transaction (quantity, application username, order data).
    public let payment: Payment
    public var state: TransactionState
    /// When the store charged (or for a restore, the restore's date).
    public var purchaseDate: Date
    /// When the original transaction was charged.
    public var originalPurchaseDate: Date
    /// When a subscription period ends.
    public var expiresDate: Date?
    /// When the purchase was refunded or revoked.
    public var revocationDate: Date?
    /// Why it was revoked (0 other, 1 an issue in the app), as Apple codes it.
    public var revocationReason: Int?
    /// Identifies one subscription period across devices.
    public var webOrderLineItemID: String?
    /// The price charged, in `currencyCode`.
    public var price: Decimal?
    public var currencyCode: String?
    /// The storefront (ISO 3166 alpha-3) where it was bought.
    public var storefront: String?
    /// The StoreKit 2 signed transaction (JWS compact serialization), when the store issued one.
    public var signedTransaction: String?
    /// Why it failed, when `state` is `.failed`.
    public var error: StoreError?
    /// The subscription group, for auto-renewable subscriptions.
    public var subscriptionGroupID: String?
    /// Whether the customer upgraded to another subscription in the group, ending this one.
    public var isUpgraded: Bool
    /// The kind of offer applied, if any (`introductory`, `promotional`, `code`).
    public var offerType: SubscriptionOffer.Kind?
    /// The offer's identifier, for promotional and code offers.
    public var offerID: String?

    /// The transaction ID, for `Identifiable`.
    public var id: String { transactionID }
    /// The number of items bought.
    public var quantity: Int { payment.quantity }

    public init(
        transactionID: String, originalTransactionID: String? = nil, productID: String,
        productType: ProductType, payment: Payment, state: TransactionState, purchaseDate: Date,
        originalPurchaseDate: Date? = nil, expiresDate: Date? = nil, revocationDate: Date? = nil,
        revocationReason: Int? = nil, webOrderLineItemID: String? = nil, price: Decimal? = nil,
        currencyCode: String? = nil, storefront: String? = nil, signedTransaction: String? = nil,
        error: StoreError? = nil, subscriptionGroupID: String? = nil, isUpgraded: Bool = false,
        offerType: SubscriptionOffer.Kind? = nil, offerID: String? = nil
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID ?? transactionID
        self.productID = productID
        self.productType = productType
        self.payment = payment
        self.state = state
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate ?? purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.webOrderLineItemID = webOrderLineItemID
        self.price = price
        self.currencyCode = currencyCode
        self.storefront = storefront
        self.signedTransaction = signedTransaction
        self.error = error
        self.subscriptionGroupID = subscriptionGroupID
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerID = offerID
    }
}
