/// The kind of refund or revocation that applies to a transaction (Apple's `revocationType`).
public enum RevocationType: String, Codable, Hashable, Sendable, CaseIterable {
    /// The whole transaction was refunded (`revocationPercentage` 100000).
    case refundFull = "REFUND_FULL"
    /// Part of it was refunded: `revocationPercentage` says how much.
    case refundProrated = "REFUND_PRORATED"
    /// Family Sharing access was revoked.
    case familyRevoke = "FAMILY_REVOKE"
}
