import Foundation
import StoreCore

/// What the app's StoreKit requests add to the store's journal (kind `storekit`): promotional
/// offer nonces the store accepted, offer codes it issued or redeemed, and refund requests
/// with their decisions. One member is set per record; each is an event another process (the
/// server's notification sender) can read from the journal.
struct StoreKitRecord: Codable, Hashable, Sendable {
    var usedNonce: UsedOfferNonce?
    var offerCode: OfferCode?
    var refundRequest: RefundRequest?
}

/// A promotional offer's nonce the store accepted, with its key and when it was signed:
/// the same nonce is refused afterwards (Apple's anti-replay value).
struct UsedOfferNonce: Codable, Hashable, Sendable {
    var keyID: String
    /// The nonce, lowercase.
    var nonce: String
    /// The signature's timestamp, in milliseconds since 1970.
    var timestamp: Int64
    /// The transaction the offer was applied to.
    var transactionID: String
}
