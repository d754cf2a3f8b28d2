import Foundation

/// Apple's `DecodedRealtimeRequestBody`: what the App Store tells a developer's Get Retention
/// Message endpoint when a customer may cancel, signed as a JWS (`RealtimeRequestBody`'s
/// `signedPayload`). Members named exactly as Apple's.
public struct DecodedRealtimeRequestBody: Codable, Hashable, Sendable {
    /// The subscription's original transaction ID.
    public let originalTransactionId: String
    /// The app's Apple ID.
    public let appAppleId: Int64
    /// The subscription's product.
    public let productId: String
    /// The customer's locale, as Apple writes it (`en-US`).
    public let userLocale: String
    /// A new UUID for each request.
    public let requestIdentifier: String
    /// When the App Store signed it, in milliseconds since 1970.
    public let signedDate: Int64
    /// `Sandbox` or `Production`.
    public let environment: String

    /// Creates a request body.
    public init(
        originalTransactionId: String, appAppleId: Int64, productId: String, userLocale: String,
        requestIdentifier: UUID, signedDate: Int64, environment: String
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier.uuidString.lowercased()
        self.signedDate = signedDate
        self.environment = environment
    }
}
