/// A subscription's status as the App Store Server API codes it (Apple's `Status`).
public enum SubscriptionStatusCode: Int32, Codable, Hashable, Sendable, CaseIterable {
    /// Active.
    case active = 1
    /// Expired.
    case expired = 2
    /// In the billing retry period.
    case billingRetry = 3
    /// In the billing grace period.
    case billingGracePeriod = 4
    /// Revoked (refunded, or Family Sharing revoked).
    case revoked = 5
}
