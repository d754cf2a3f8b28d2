import Foundation

extension RenewalInfo {
    /// What happens when a 12-month commitment ends (StoreKit's `RenewalInfo.CommitmentInfo`;
    /// the App Store Server's `RenewalCommitmentInfo`).
    public struct CommitmentInfo: Codable, Hashable, Sendable {
        /// Whether the subscription renews when the commitment ends (`commitmentAutoRenewStatus`).
        public var willAutoRenew: Bool
        /// The product it renews into then (`commitmentAutoRenewProductId`).
        public var autoRenewPreference: String
        /// The plan it renews into then (`commitmentRenewalBillingPlanType`).
        public var renewalBillingPlanType: BillingPlanType
        /// When the commitment ends and renews (`commitmentRenewalDate`).
        public var renewalDate: Date
        /// What the renewal then costs, in the subscriber's currency: one payment of the plan
        /// renewed into (`commitmentRenewalPrice`); nil when it will not renew.
        public var renewalPrice: Decimal?

        /// Creates a commitment's renewal terms.
        public init(
            willAutoRenew: Bool, autoRenewPreference: String, renewalBillingPlanType: BillingPlanType,
            renewalDate: Date, renewalPrice: Decimal? = nil
        ) {
            self.willAutoRenew = willAutoRenew
            self.autoRenewPreference = autoRenewPreference
            self.renewalBillingPlanType = renewalBillingPlanType
            self.renewalDate = renewalDate
            self.renewalPrice = renewalPrice
        }
    }
}
