import Foundation

/// An introductory or promotional offer on an auto-renewable subscription.
public struct SubscriptionOffer: Codable, Hashable, Sendable {
    /// How the customer pays during the offer, stored raw.
    public struct PaymentMode: RawRepresentable, Codable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Free for the offer's periods.
        public static let freeTrial = PaymentMode(rawValue: "freeTrial")
        /// A reduced price each period of the offer.
        public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
        /// One reduced price for all the offer's periods, paid at once.
        public static let payUpFront = PaymentMode(rawValue: "payUpFront")
    }

    /// Which kind of offer this is, stored raw.
    public struct Kind: RawRepresentable, Codable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The introductory offer, once per subscription group and account.
        public static let introductory = Kind(rawValue: "introductory")
        /// A promotional offer the app presents to current or lapsed subscribers.
        public static let promotional = Kind(rawValue: "promotional")
        /// An offer redeemed with an offer code.
        public static let code = Kind(rawValue: "code")
        /// A win-back offer for a lapsed subscriber (StoreKit 2's `.winBack`).
        public static let winBack = Kind(rawValue: "winBack")
    }

    /// The offer's identifier (promotional and code offers); nil for introductory offers.
    public let id: String?
    /// Which kind of offer this is.
    public let kind: Kind
    /// How the customer pays during the offer.
    public let paymentMode: PaymentMode
    /// The length of one offer period.
    public let period: SubscriptionPeriod
    /// How many periods the offer lasts.
    public let periodCount: Int
    /// The price per period (zero for a free trial).
    public let price: Decimal
    /// The price formatted for the storefront and locale.
    public let displayPrice: String

    /// Creates an offer.
    public init(
        id: String?, kind: Kind, paymentMode: PaymentMode, period: SubscriptionPeriod,
        periodCount: Int, price: Decimal, displayPrice: String
    ) {
        self.id = id
        self.kind = kind
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.price = price
        self.displayPrice = displayPrice
    }
}
