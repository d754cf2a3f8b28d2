/// Whether the customer accepted a price increase (Apple's `priceIncreaseStatus`).
public enum PriceIncreaseStatus: Int32, Codable, Hashable, Sendable, CaseIterable {
    /// The customer has not responded.
    case customerHasNotResponded = 0
    /// The customer consented, or no consent was needed.
    case customerConsentedOrWasNotifiedWithoutNeedingConsent = 1
}
