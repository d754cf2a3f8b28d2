import Foundation

extension StoreKitConfiguration {
    /// An introductory, promotional (`adHocOffers`), offer-code (`codeOffers`) or win-back
    /// (`winbackOffers`) subscription offer as the file declares it.
    public struct SubscriptionOffer: Sendable, Hashable {
        /// The offer identifier (`offerID`); `nil` for introductory offers, which have none, and
        /// for offer codes as Xcode writes them (they have `internalID` and `referenceName`).
        public var id: String?
        /// App Store Connect's identifier of the offer (`internalID`), when present.
        public var internalID: String?
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
        /// The billing plan the offer applies to (`billingPlanType`, format 5 and later), when given.
        public var billingPlanType: BillingPlanType?
        /// Members the catalog does not model (`isStackable`, …), kept as read.
        public var extra: [String: JSONValue]

        /// Creates an offer.
        public init(
            id: String? = nil, internalID: String? = nil, referenceName: String? = nil, paymentMode: PaymentMode,
            period: SubscriptionPeriod, numberOfPeriods: Int = 1, price: Decimal = 0,
            eligibility: [String] = [], billingPlanType: BillingPlanType? = nil, extra: [String: JSONValue] = [:]
        ) {
            self.id = id
            self.internalID = internalID
            self.billingPlanType = billingPlanType
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
