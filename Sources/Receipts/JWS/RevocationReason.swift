/// Why the App Store refunded or revoked a transaction (Apple's `revocationReason`).
public enum RevocationReason: Int32, Codable, Hashable, Sendable, CaseIterable {
    /// Another reason, such as an accidental purchase.
    case other = 0
    /// An actual or perceived issue within the app.
    case appIssue = 1
}
