import Foundation

/// The decoded payload of a signed app transaction (Apple's `AppTransaction`, `JWSAppTransactionDecodedPayload`).
/// Dates travel as milliseconds since 1970 (the JWS encoder's convention).
public struct AppTransaction: Codable, Hashable, Sendable {
    /// The environment, as stored.
    public var receiptType: String?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The app's bundle ID.
    public var bundleId: String?
    /// The app version (`CFBundleVersion`).
    public var applicationVersion: String?
    /// The version's identifier in the App Store.
    public var versionExternalIdentifier: Int64?
    /// When the App Store signed this payload.
    public var receiptCreationDate: Date?
    /// When the customer first got the app.
    public var originalPurchaseDate: Date?
    /// The app version the customer first got.
    public var originalApplicationVersion: String?
    /// The device's verification value (base64 SHA-384).
    public var deviceVerification: String?
    /// The UUID used to compute `deviceVerification`.
    public var deviceVerificationNonce: UUID?
    /// When a pre-order was placed, if it was one.
    public var preorderDate: Date?
    /// The app transaction's identifier.
    public var appTransactionId: String?
    /// The platform the app was first bought on (`iOS`, `macOS`…).
    public var originalPlatform: String?

    /// Creates a payload.
    public init() {}
}
