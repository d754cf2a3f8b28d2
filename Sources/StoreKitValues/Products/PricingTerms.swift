import Foundation

/// One way to pay for a subscription (StoreKit's `Product.SubscriptionInfo.PricingTerms`):
/// billed up front each period, or monthly over a 12-month commitment, each with its price
/// in the storefront and the offers that belong to the plan.
public struct PricingTerms: Codable, Hashable, Sendable {
    /// What a commitment binds the customer to (StoreKit's `Product.SubscriptionInfo.CommitmentInfo`).
    public struct CommitmentInfo: Codable, Hashable, Sendable {
        /// The whole commitment's price in the storefront's currency (every payment together).
        public let price: Decimal
        /// `price` formatted for the storefront's currency in the chosen locale.
        public let displayPrice: String
        /// How long the commitment lasts (one year).
        public let period: SubscriptionPeriod

        /// Creates a commitment's terms.
        public init(price: Decimal, displayPrice: String, period: SubscriptionPeriod) {
            self.price = price
            self.displayPrice = displayPrice
            self.period = period
        }
    }

    /// How this plan bills.
    public let billingPlanType: BillingPlanType
    /// What each payment costs in the storefront's currency.
    public let billingPrice: Decimal
    /// `billingPrice` formatted for the storefront's currency in the chosen locale.
    public let billingDisplayPrice: String
    /// How often the customer pays: the subscription's period up front, one month monthly.
    public let billingPeriod: SubscriptionPeriod
    /// The commitment, for a plan that has one.
    public let commitmentInfo: CommitmentInfo?
    /// The offers of this plan (an offer the catalog gives a `billingPlanType` belongs to that
    /// plan only; one without belongs to every plan).
    public let subscriptionOffers: [SubscriptionOffer]

    /// Creates pricing terms.
    public init(
        billingPlanType: BillingPlanType, billingPrice: Decimal, billingDisplayPrice: String,
        billingPeriod: SubscriptionPeriod, commitmentInfo: CommitmentInfo? = nil,
        subscriptionOffers: [SubscriptionOffer] = []
    ) {
        self.billingPlanType = billingPlanType
        self.billingPrice = billingPrice
        self.billingDisplayPrice = billingDisplayPrice
        self.billingPeriod = billingPeriod
        self.commitmentInfo = commitmentInfo
        self.subscriptionOffers = subscriptionOffers
    }
}
