/// How a subscription transaction was paid for (Apple's `billingPlanType`).
public enum BillingPlanType: String, Codable, Hashable, Sendable, CaseIterable {
    /// The whole period's price up front.
    case billedUpfront = "BILLED_UPFRONT"
    /// One payment a month over a 12-month commitment.
    case monthly = "MONTHLY"
}
