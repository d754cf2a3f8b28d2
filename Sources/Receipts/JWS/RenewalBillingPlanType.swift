/// How a subscription's next billing period, or its next commitment, will be paid for
/// (Apple's `renewalBillingPlanType`).
public enum RenewalBillingPlanType: String, Codable, Hashable, Sendable, CaseIterable {
    /// The whole period's price up front.
    case billedUpfront = "BILLED_UPFRONT"
    /// One payment a month over a 12-month commitment.
    case monthly = "MONTHLY"
}
