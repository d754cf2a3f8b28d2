import Foundation

/// The customer's purchase (download) of the app, signed by the store: what StoreKit 2's
/// `AppTransaction.shared` gives, with its members named as StoreKit 2 names them. Read it
/// through `Store.appTransaction()`, which says whether it is verified.
public struct AppTransaction: Hashable, Sendable {
    /// The app download's identifier (Apple's `appTransactionId`); every transaction of the
    /// account carries it too.
    public var appTransactionID: String
    /// The app's bundle identifier.
    public var bundleID: String
    /// The app version the app transaction applies to.
    public var appVersion: String
    /// The app version the customer first bought (`originalApplicationVersion`): what a paid app
    /// turned free checks to grant earlier buyers what they paid for.
    public var originalAppVersion: String
    /// When the customer first bought (downloaded) the app.
    public var originalPurchaseDate: Date
    /// The environment that signed it, as stored (`receiptType`), e.g. `Sandbox`.
    public var rawEnvironment: String
    /// When the store signed it.
    public var signedDate: Date
    /// The app's Apple ID in App Store Connect (`appAppleId`); nil in the sandbox and Xcode.
    public var appID: Int64?
    /// The store's identifier of the app version (`versionExternalIdentifier`); nil in the sandbox.
    public var appVersionID: Int64?
    /// When the customer pre-ordered the app, if they did.
    public var preorderDate: Date?
    /// Where the customer first bought the app, as stored (`originalPlatform`), e.g. `iOS`.
    public var rawOriginalPlatform: String?
    /// SHA-384 of the nonce and this device's identifier, for checking the transaction belongs
    /// to this device.
    public var deviceVerification: Data
    /// The nonce of `deviceVerification`.
    public var deviceVerificationNonce: UUID?
    /// The signed app transaction as the store issued it (JWS compact serialization), for the
    /// app's server to verify again.
    public var jwsRepresentation: String

    /// The environment that signed it, when it is one this build knows.
    public var environment: AppStoreEnvironment? { AppStoreEnvironment(rawValue: rawEnvironment) }

    /// Where the customer first bought the app, when it is a platform this build knows.
    public var originalPlatform: PurchasePlatform? { rawOriginalPlatform.flatMap(PurchasePlatform.init(rawValue:)) }

    /// Creates an app transaction; the optional members default to absent.
    public init(
        appTransactionID: String, bundleID: String, appVersion: String, originalAppVersion: String,
        originalPurchaseDate: Date, rawEnvironment: String, signedDate: Date, appID: Int64? = nil,
        appVersionID: Int64? = nil, preorderDate: Date? = nil, rawOriginalPlatform: String? = nil,
        deviceVerification: Data = Data(), deviceVerificationNonce: UUID? = nil, jwsRepresentation: String = ""
    ) {
        self.appTransactionID = appTransactionID
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.originalAppVersion = originalAppVersion
        self.originalPurchaseDate = originalPurchaseDate
        self.rawEnvironment = rawEnvironment
        self.signedDate = signedDate
        self.appID = appID
        self.appVersionID = appVersionID
        self.preorderDate = preorderDate
        self.rawOriginalPlatform = rawOriginalPlatform
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.jwsRepresentation = jwsRepresentation
    }
}
