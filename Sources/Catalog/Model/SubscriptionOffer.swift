import Foundation

extension StoreKitConfiguration {
    /// An introductory, promotional (`adHocOffers`) or offer-code (`codeOffers`) subscription
    /// offer as the file declares it.
    public struct SubscriptionOffer: Sendable, Hashable {
        /// The offer identifier (`offerID`); `nil` for introductory offers, which have none.
        public var id: String?
        /// The reference name, when the file gives one.
        public var referenceName: String?
        /// How the offer is paid.
        public var paymentMode: PaymentMode
        /// The length of one offer period.
        public var period: SubscriptionPeriod
        /// How many periods the offer lasts (`numberOfPeriods`, 1 when absent).
        public var numberOfPeriods: Int
        /// The offer price in the catalog's base currency; always 0 for a `free` offer (a
        /// free trial charges nothing, whatever `displayPrice` Xcode left on it).
        public var price: Decimal
        /// Who may redeem an offer code (`eligibility`, e.g. `new`, `existing`, `expired`); empty otherwise.
        public var eligibility: [String]
        /// Members the catalog does not model (`internalID`, `billingPlanType`, …), kept as read.
        public var extra: [String: JSONValue]

        /// Creates an offer.
        public init(
            id: String? = nil, referenceName: String? = nil, paymentMode: PaymentMode,
            period: SubscriptionPeriod, numberOfPeriods: Int = 1, price: Decimal = 0,
            eligibility: [String] = [], extra: [String: JSONValue] = [:]
        ) {
            self.id = id
            self.referenceName = referenceName
            self.paymentMode = paymentMode
            self.period = period
            self.numberOfPeriods = numberOfPeriods
            self.price = price
            self.eligibility = eligibility
            self.extra = extra
        }
    }
}
