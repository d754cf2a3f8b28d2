import Foundation
import StoreKitValues

/// The customer's purchase of the app, signed by the App Store: the payload of a signed app
/// transaction, named as Apple's `JWSAppTransactionDecodedPayload` (StoreKit's `AppTransaction`).
/// Dates travel as milliseconds since 1970; enums are stored raw so new values survive.
public struct JWSAppTransactionDecodedPayload: Codable, Hashable, Sendable, RawValueMembers {
    /// The environment that signed it, as stored (see `receiptType`): an `environment` value.
    public var rawReceiptType: String?
    /// The app's Apple ID in App Store Connect; absent in the sandbox and Xcode environments.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app version the app transaction applies to (`CFBundleVersion`).
    public var applicationVersion: String?
    /// The App Store's identifier of the app version; absent in the sandbox and Xcode.
    public var versionExternalIdentifier: Int64?
    /// When the App Store signed the app transaction (Apple's `receiptCreationDate`).
    public var receiptCreationDate: Date?
    /// When the customer first bought (downloaded) the app.
    public var originalPurchaseDate: Date?
    /// The app version the customer first bought.
    public var originalApplicationVersion: String?
    /// Base64 SHA-384 of the lowercase nonce followed by the lowercase device verification ID.
    public var deviceVerification: String?
    /// The nonce of `deviceVerification`, a lowercase UUID.
    public var deviceVerificationNonce: String?
    /// When the customer pre-ordered the app, if they did.
    public var preorderDate: Date?
    /// The identifier of the app download transaction; every transaction carries it too.
    public var appTransactionId: String?
    /// Where the customer first bought the app, as stored (see `originalPlatform`).
    public var rawOriginalPlatform: String?
    /// When the App Store signed this payload.
    public var signedDate: Date?

    enum CodingKeys: String, CodingKey {
        case rawReceiptType = "receiptType"
        case appAppleId, bundleId, applicationVersion, versionExternalIdentifier, receiptCreationDate
        case originalPurchaseDate, originalApplicationVersion, deviceVerification, deviceVerificationNonce
        case preorderDate, appTransactionId
        case rawOriginalPlatform = "originalPlatform"
        case signedDate
    }

    /// Creates an empty payload; set the fields that apply.
    public init() {}

    /// The environment that signed it, when known.
    public var receiptType: AppStoreEnvironment? {
        get { self[typed: \.rawReceiptType] }
        set { self[typed: \.rawReceiptType] = newValue }
    }

    /// Where the customer first bought the app, when known.
    public var originalPlatform: PurchasePlatform? {
        get { self[typed: \.rawOriginalPlatform] }
        set { self[typed: \.rawOriginalPlatform] = newValue }
    }
}
