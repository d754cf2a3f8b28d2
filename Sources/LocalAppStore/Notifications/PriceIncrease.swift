import Foundation

/// A price increase of a subscription that needs the customer's consent (`store price-increase
/// ID`): `PRICE_INCREASE`/`PENDING` when announced, `ACCEPTED` on consent; without consent by
/// the renewal date (declined or unanswered) the subscription ends there with
/// `EXPIRED`/`PRICE_INCREASE`.
public struct PriceIncrease: Codable, Hashable, Sendable {
    /// Where the consent stands, stored raw.
    public struct Status: RawRepresentable, Codable, Hashable, Sendable {
        /// The status's name.
        public let rawValue: String
        /// Wraps a status, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Announced; the customer has not answered (renewal info's `priceIncreaseStatus` 0).
        public static let pending = Status(rawValue: "pending")
        /// The customer consented (`priceIncreaseStatus` 1).
        public static let accepted = Status(rawValue: "accepted")
        /// The customer declined: the subscription will not renew (`priceIncreaseStatus` stays 0,
        /// Apple's "not consented").
        public static let declined = Status(rawValue: "declined")
    }

    /// The subscription's original transaction ID.
    public var originalTransactionID: String
    /// The account it belongs to.
    public var accountID: String
    /// The product whose price rises.
    public var productID: String
    /// When it was announced (store clock).
    public var date: Date
    /// Where the consent stands.
    public var status: Status
}
