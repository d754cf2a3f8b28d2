import Foundation

/// One in-app purchase inside an app receipt (attribute 17), named as Apple's
/// "In-App Purchase Receipt Fields" name them.
public struct InAppPurchaseReceipt: Codable, Hashable, Sendable {
    /// 1701: the number of items purchased.
    public var quantity: Int64?
    /// 1702: the product identifier.
    public var productID: String
    /// 1703: the transaction identifier.
    public var transactionID: String
    /// 1705: the original transaction identifier.
    public var originalTransactionID: String?
    /// 1704: when the item was purchased.
    public var purchaseDate: Date?
    /// 1706: when the original transaction was made.
    public var originalPurchaseDate: Date?
    /// 1707: the product type, as stored (see `productType`).
    public var rawProductType: Int64?
    /// 1708: when the subscription expires.
    public var expiresDate: Date?
    /// 1711: the web order line item ID.
    public var webOrderLineItemID: Int64?
    /// 1712: when Apple refunded or revoked the purchase.
    public var cancellationDate: Date?
    /// 1713: whether the subscription is in its free trial.
    public var isInTrialPeriod: Bool?
    /// 1719: whether the subscription is in an introductory offer period.
    public var isInIntroOfferPeriod: Bool?
    /// 1721: the promotional offer identifier.
    public var promotionalOfferIdentifier: String?
    /// Attributes this reader does not know, kept as they were.
    public var unknownAttributes: [ReceiptAttribute]

    /// The product type, when it is one this library knows.
    public var productType: InAppProductType? {
        get { rawProductType.flatMap { Int(exactly: $0) }.flatMap(InAppProductType.init(rawValue:)) }
        set { rawProductType = newValue.map { Int64($0.rawValue) } }
    }

    /// Creates an in-app purchase receipt.
    public init(
        quantity: Int64? = 1, productID: String, transactionID: String, originalTransactionID: String? = nil,
        purchaseDate: Date? = nil, originalPurchaseDate: Date? = nil, productType: InAppProductType? = nil,
        expiresDate: Date? = nil, webOrderLineItemID: Int64? = nil, cancellationDate: Date? = nil,
        isInTrialPeriod: Bool? = nil, isInIntroOfferPeriod: Bool? = nil, promotionalOfferIdentifier: String? = nil,
        unknownAttributes: [ReceiptAttribute] = []
    ) {
        self.quantity = quantity
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.rawProductType = productType.map { Int64($0.rawValue) }
        self.expiresDate = expiresDate
        self.webOrderLineItemID = webOrderLineItemID
        self.cancellationDate = cancellationDate
        self.isInTrialPeriod = isInTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferIdentifier = promotionalOfferIdentifier
        self.unknownAttributes = unknownAttributes
    }
}
