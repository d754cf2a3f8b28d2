/// Attribute type numbers from Apple's "Receipt Fields" (and the few undocumented ones real
/// receipts carry and other readers name).
public enum ReceiptAttributeType {
    /// 0: receipt type (UTF8String).
    public static let receiptType: Int64 = 0
    /// 1: app item ID (INTEGER).
    public static let appItemID: Int64 = 1
    /// 2: bundle identifier (UTF8String).
    public static let bundleID: Int64 = 2
    /// 3: app version (UTF8String).
    public static let appVersion: Int64 = 3
    /// 4: opaque value (raw bytes).
    public static let opaqueValue: Int64 = 4
    /// 5: SHA-1 hash (raw 20 bytes).
    public static let sha1Hash: Int64 = 5
    /// 10: age rating (UTF8String).
    public static let ageRating: Int64 = 10
    /// 12: receipt creation date (IA5String, RFC 3339).
    public static let creationDate: Int64 = 12
    /// 17: one in-app purchase receipt (SET of attributes).
    public static let inAppPurchase: Int64 = 17
    /// 18: original purchase date of the app (IA5String).
    public static let originalPurchaseDate: Int64 = 18
    /// 19: original application version (UTF8String).
    public static let originalAppVersion: Int64 = 19
    /// 21: receipt expiration date (IA5String).
    public static let expirationDate: Int64 = 21

    /// 1701: quantity (INTEGER).
    public static let quantity: Int64 = 1701
    /// 1702: product identifier (UTF8String).
    public static let productID: Int64 = 1702
    /// 1703: transaction identifier (UTF8String).
    public static let transactionID: Int64 = 1703
    /// 1704: purchase date (IA5String).
    public static let purchaseDate: Int64 = 1704
    /// 1705: original transaction identifier (UTF8String).
    public static let originalTransactionID: Int64 = 1705
    /// 1706: original purchase date (IA5String).
    public static let inAppOriginalPurchaseDate: Int64 = 1706
    /// 1707: product type (INTEGER).
    public static let productType: Int64 = 1707
    /// 1708: subscription expiration date (IA5String).
    public static let expiresDate: Int64 = 1708
    /// 1711: web order line item ID (INTEGER).
    public static let webOrderLineItemID: Int64 = 1711
    /// 1712: cancellation date (IA5String).
    public static let cancellationDate: Int64 = 1712
    /// 1713: is in trial period (INTEGER).
    public static let isInTrialPeriod: Int64 = 1713
    /// 1719: is in introductory offer period (INTEGER).
    public static let isInIntroOfferPeriod: Int64 = 1719
    /// 1721: promotional offer identifier (UTF8String).
    public static let promotionalOfferIdentifier: Int64 = 1721

    /// A human name for `type`, for error messages.
    public static func name(of type: Int64) -> String {
        switch type {
        case receiptType: "receipt type"
        case appItemID: "app item ID"
        case bundleID: "bundle ID"
        case appVersion: "app version"
        case opaqueValue: "opaque value"
        case sha1Hash: "SHA-1 hash"
        case ageRating: "age rating"
        case creationDate: "creation date"
        case inAppPurchase: "in-app purchase receipt"
        case originalPurchaseDate: "original purchase date"
        case originalAppVersion: "original app version"
        case expirationDate: "expiration date"
        case quantity: "quantity"
        case productID: "product ID"
        case transactionID: "transaction ID"
        case purchaseDate: "purchase date"
        case originalTransactionID: "original transaction ID"
        case inAppOriginalPurchaseDate: "original purchase date"
        case productType: "product type"
        case expiresDate: "expires date"
        case webOrderLineItemID: "web order line item ID"
        case cancellationDate: "cancellation date"
        case isInTrialPeriod: "is in trial period"
        case isInIntroOfferPeriod: "is in intro offer period"
        case promotionalOfferIdentifier: "promotional offer ID"
        default: "unknown"
        }
    }
}
