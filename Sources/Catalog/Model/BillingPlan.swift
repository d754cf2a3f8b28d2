import Foundation

extension StoreKitConfiguration {
    /// One way a subscription can be paid for (format 6's `billingPlans`): billed up front each
    /// period, or monthly over a 12-month commitment. Values only; what a plan sells is the store's.
    public struct BillingPlan: Sendable, Hashable {
        /// How the plan bills (`billingPlanType`).
        public var type: BillingPlanType
        /// What each payment costs (`displayPrice`) in the catalog's base currency: the
        /// period's price for `billedUpfront`, the monthly payment for `monthly`.
        public var price: Decimal
        /// What the whole commitment costs (`commitmentDisplayPrice`), `nil` when the file gives none.
        public var commitmentPrice: Decimal?
        /// Whether the plan is offered (`isEnabled`, `true` when absent).
        public var isEnabled: Bool = true
        /// App Store Connect's identifier of the plan (`internalID`), when present.
        public var internalID: String?
        /// Members the catalog does not model, kept as read.
        public var extra: [String: JSONValue] = [:]
    }
}
