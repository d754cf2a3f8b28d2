import Foundation

/// Apple's `RealtimeResponseBody`: what a developer's Get Retention Message endpoint answers,
/// one of a text message, a switch-plan message or a promotional offer. Decoded leniently (every
/// member optional, identifiers as text) so `RealtimeAnswerCheck` can say what is wrong.
public struct RealtimeResponseBody: Codable, Hashable, Sendable {
    /// Apple's `message`.
    public struct Message: Codable, Hashable, Sendable {
        /// The message to show.
        public var messageIdentifier: String?
    }

    /// Apple's `alternateProduct`: a switch-plan message.
    public struct AlternateProduct: Codable, Hashable, Sendable {
        /// The message to show.
        public var messageIdentifier: String?
        /// The subscription to suggest.
        public var productId: String?
        /// The billing plan of the suggestion, when the product has several.
        public var billingPlanType: String?
    }

    /// Apple's `PromotionalOfferSignatureV1`.
    public struct PromotionalOfferSignatureV1: Codable, Hashable, Sendable {
        /// The Base64 DER ECDSA signature.
        public var encodedSignature: String?
        /// The subscription the offer is for.
        public var productId: String?
        /// The signature's one-time UUID.
        public var nonce: String?
        /// When it was signed, in milliseconds since 1970.
        public var timestamp: Int64?
        /// The subscription key that signed it.
        public var keyId: String?
        /// The offer's identifier.
        public var offerIdentifier: String?
        /// The app account token the signature covers, if any.
        public var appAccountToken: String?
    }

    /// Apple's `promotionalOffer` (named apart from StoreKit's `PromotionalOffer`).
    public struct PromotionalOfferAnswer: Codable, Hashable, Sendable {
        /// The message to show with the offer.
        public var messageIdentifier: String?
        /// A version 2 signature (a JWS).
        public var promotionalOfferSignatureV2: String?
        /// A version 1 signature.
        public var promotionalOfferSignatureV1: PromotionalOfferSignatureV1?
    }

    /// A text message.
    public var message: Message?
    /// A switch-plan message.
    public var alternateProduct: AlternateProduct?
    /// A promotional offer.
    public var promotionalOffer: PromotionalOfferAnswer?
    /// Advanced Commerce API content (kept to be refused: this store sells no such products).
    public var advancedCommerceInfo: JSONMember?

    /// Any JSON value, kept only to know a member was there.
    public struct JSONMember: Codable, Hashable, Sendable {
        /// Decodes and forgets any value.
        public init(from decoder: any Decoder) throws {}
        /// Encodes nothing (`null`).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }
}
