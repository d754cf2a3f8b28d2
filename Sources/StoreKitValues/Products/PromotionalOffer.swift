import Foundation

/// A promotional offer as the app applies it, signed by the developer's server with its
/// subscription key: StoreKit 2's `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`
/// (StoreKit 1's `SKPaymentDiscount`).
///
/// The signature is ECDSA with SHA-256 (DER, as Apple's `PromotionalOfferSignatureCreator`
/// makes it) over the bundle ID, key ID, product ID, offer ID, app account name (the app
/// account token, else the application username, else empty; lowercase), the lowercase
/// nonce and the timestamp, joined by U+2063 (see Apple's "Generating a signature for
/// promotional offers"). The store checks it, refuses a nonce it saw before, and takes a
/// timestamp for 24 hours.
public struct PromotionalOffer: Codable, Hashable, Sendable {
    /// The offer's identifier in the catalog (`offerID` of an `adHocOffers` entry).
    public var offerID: String
    /// The identifier of the subscription key that signed it.
    public var keyID: String
    /// A one-time value the server made for this signature.
    public var nonce: UUID
    /// The DER ECDSA signature.
    public var signature: Data
    /// When the server signed it, in milliseconds since 1970.
    public var timestamp: Int64

    /// Creates a signed promotional offer.
    public init(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int64) {
        self.offerID = offerID
        self.keyID = keyID
        self.nonce = nonce
        self.signature = signature
        self.timestamp = timestamp
    }

    /// The text the signature covers, in Apple's order, joined by U+2063 (INVISIBLE SEPARATOR).
    /// - Parameters:
    ///   - bundleID: the app's bundle identifier.
    ///   - keyID: the identifier of the subscription key that signs.
    ///   - productID: the subscription's product identifier.
    ///   - offerID: the promotional offer's identifier.
    ///   - appAccountName: the app account token in lowercase, else the application username, else empty.
    ///   - nonce: the offer's one-time nonce (written in lowercase).
    ///   - timestamp: when the offer was signed, in milliseconds since 1970.
    /// - Returns: the text to sign with ECDSA and SHA-256.
    public static func signedText(
        bundleID: String, keyID: String, productID: String, offerID: String, appAccountName: String, nonce: UUID,
        timestamp: Int64
    ) -> String {
        [bundleID, keyID, productID, offerID, appAccountName, nonce.uuidString.lowercased(), String(timestamp)]
            .joined(separator: "\u{2063}")
    }

    /// The app account name a payment's signature covers: its app account token, else its
    /// application username, else empty; lowercase, as Apple's signature creator writes it.
    public static func appAccountName(appAccountToken: UUID?, applicationUsername: String?) -> String {
        (appAccountToken?.uuidString ?? applicationUsername ?? "").lowercased()
    }
}
