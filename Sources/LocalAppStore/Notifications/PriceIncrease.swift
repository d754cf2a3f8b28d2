import Foundation

/// A price increase of a subscription that needs the customer's consent (`store price-increase
/// ID --price P`): `PRICE_INCREASE`/`PENDING` when announced, `ACCEPTED` on consent; without
/// consent by the renewal date (declined or unanswered) the subscription ends there with
/// `EXPIRED`/`PRICE_INCREASE`. Consented, the subscription renews at `price` from then on.
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
    /// The new price of a period, in `currencyCode` (the subscriber's); nil for an increase
    /// announced without one (journals before prices were recorded), which renews at the
    /// catalog's price.
    public var price: Decimal?
    /// The ISO 4217 currency of `price`.
    public var currencyCode: String?

    /// Apple's `priceIncreaseStatus` for it: 1 consented, 0 not (yet): a declined one stays 0
    /// until the subscription expires.
    public var priceIncreaseStatus: Int32 { status == .accepted ? 1 : 0 }

    /// What a renewal of `stored` into `productID` in `currencyCode` costs by this increase,
    /// or nil when it does not price it: it is for another product or currency, has no price,
    /// or was announced before the current period and not consented to; or a customer's own
    /// charge (a resubscription, an upgrade) has started the subscription over since.
    func renewalPrice(
        of stored: StoredSubscription, into productID: String, currencyCode: String, in state: JournalState
    ) -> Decimal? {
        guard let price, self.productID == productID, self.currencyCode == currencyCode,
            stored.lifecycle.originalTransactionID == originalTransactionID
        else { return nil }
        if date >= stored.lifecycle.periodStart { return price }
        guard status == .accepted else { return nil }
        let restarted = state.entries(originalTransactionID: originalTransactionID).contains {
            $0.charged && !RenewalPayment.isRenewal($0.transaction) && $0.transaction.purchaseDate > date
        }
        return restarted ? nil : price
    }
}
