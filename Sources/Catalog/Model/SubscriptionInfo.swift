extension StoreKitConfiguration {
    /// What only the file's auto-renewable subscriptions have: their group, level, period and offers.
    public struct SubscriptionInfo: Sendable, Hashable {
        /// The subscription group's `id` (`subscriptionGroupID`).
        public var groupID: String
        /// The subscription group's reference name (`name`).
        public var groupName: String
        /// The level within the group (`groupNumber`); 1 is the highest level of service.
        public var groupNumber: Int
        /// The renewal period (`recurringSubscriptionPeriod`).
        public var period: SubscriptionPeriod
        /// Introductory offers: v5 `introductoryOffers`, else the single `introductoryOffer`.
        public var introductoryOffers: [SubscriptionOffer] = []
        /// Promotional offers (`adHocOffers`).
        public var promotionalOffers: [SubscriptionOffer] = []
        /// Offer codes (`codeOffers`).
        public var codeOffers: [SubscriptionOffer] = []
        /// Win-back offers for lapsed subscribers (`winbackOffers`).
        public var winBackOffers: [SubscriptionOffer] = []
        /// How the subscription can be paid for (`billingPlans`, format 5 and later), in file order;
        /// empty for a file that lists none, where the product's price is billed up front.
        public var billingPlans: [BillingPlan] = []

        /// The first introductory offer, the one StoreKit presents; `nil` when there is none.
        public var introductoryOffer: SubscriptionOffer? { introductoryOffers.first }
    }
}
