/// Why a transaction happened (Apple's `transactionReason`).
public enum TransactionReason: String, Codable, Hashable, Sendable, CaseIterable {
    /// The customer bought it.
    case purchase = "PURCHASE"
    /// The App Store renewed a subscription.
    case renewal = "RENEWAL"
}
