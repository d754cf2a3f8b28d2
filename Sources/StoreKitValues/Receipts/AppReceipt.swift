import Foundation

/// An App Store app receipt's payload, named as Apple's "Receipt Fields" name them.
public struct AppReceipt: Codable, Hashable, Sendable, RawValueMembers {
    /// 0: the receipt type, as stored (see `receiptType`).
    public var rawReceiptType: String?
    /// 1: the app's App Store item ID (0 outside production).
    public var appItemID: Int64?
    /// 2: the app's bundle identifier.
    public var bundleID: String
    /// 2: the full DER of the bundle identifier's value, as signed; the SHA-1 hash covers these bytes.
    /// Empty until a decoder reads it from a receipt; an encoder makes it from `bundleID` when empty.
    public var bundleIDData: [UInt8]
    /// 3: the app's version (`CFBundleVersion`).
    public var appVersion: String
    /// 4: an opaque value used with the device identifier and bundle ID in the SHA-1 hash.
    public var opaqueValue: [UInt8]
    /// 5: SHA-1 of device identifier, opaque value and bundle ID data.
    public var sha1Hash: [UInt8]
    /// 10: the app's age rating.
    public var ageRating: String?
    /// 12: when the receipt was created (its signature is checked at this date).
    public var creationDate: Date?
    /// 18: when the app was first purchased.
    public var originalPurchaseDate: Date?
    /// 19: the app version originally purchased.
    public var originalAppVersion: String?
    /// 21: when the receipt expires (volume purchase and Xcode receipts).
    public var expirationDate: Date?
    /// 17: the in-app purchases, in the order the receipt lists them.
    public var inApp: [InAppPurchaseReceipt]
    /// Attributes this reader does not know, kept as they were.
    public var unknownAttributes: [ReceiptAttribute]

    /// The receipt type, when it is one this library knows.
    public var receiptType: ReceiptType? {
        get { self[typed: \.rawReceiptType] }
        set { self[typed: \.rawReceiptType] = newValue }
    }

    /// Creates a receipt; `bundleIDData` stays empty (signing writes `bundleID` as a DER UTF8String).
    public init(
        receiptType: ReceiptType? = nil, appItemID: Int64? = nil, bundleID: String, appVersion: String,
        opaqueValue: [UInt8], sha1Hash: [UInt8], ageRating: String? = nil, creationDate: Date? = nil,
        originalPurchaseDate: Date? = nil, originalAppVersion: String? = nil, expirationDate: Date? = nil,
        inApp: [InAppPurchaseReceipt] = [], unknownAttributes: [ReceiptAttribute] = []
    ) {
        self.rawReceiptType = receiptType?.rawValue
        self.appItemID = appItemID
        self.bundleID = bundleID
        self.bundleIDData = []
        self.appVersion = appVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.ageRating = ageRating
        self.creationDate = creationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalAppVersion = originalAppVersion
        self.expirationDate = expirationDate
        self.inApp = inApp
        self.unknownAttributes = unknownAttributes
    }

    /// The in-app purchase with transaction identifier `transactionID`, if the receipt holds it.
    public func inAppPurchase(transactionID: String) -> InAppPurchaseReceipt? {
        inApp.first { $0.transactionID == transactionID }
    }
}
