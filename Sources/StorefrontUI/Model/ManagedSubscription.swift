import Foundation

/// An auto-renewable subscription as the local App Store runs it, for the Transaction
/// Manager: where it stands now and what the next renewal will do.
public struct ManagedSubscription: Hashable, Sendable {
    /// Where a subscription stands at the store clock's now.
    public enum Phase: Hashable, Sendable {
        /// In a paid period that ends (and renews, or lapses when auto-renew is off) at `until`.
        case active(until: Date)
        /// Billing failed; access continues until `until`, while the store retries.
        case gracePeriod(until: Date)
        /// Billing failed at `since`; no access while the store retries.
        case billingRetry(since: Date)
        /// Ended at `at` (cancelled and lapsed, expired now, billing never recovered, refunded).
        case expired(at: Date)
    }

    /// The subscription's original transaction ID (every renewal carries it).
    public var originalTransactionID: String
    /// The transaction of its current (or last) period.
    public var latestTransactionID: String
    /// The product of the current period.
    public var productID: String
    /// Where it stands now.
    public var phase: Phase
    /// Off after the customer cancels.
    public var willAutoRenew: Bool
    /// Renewals fail while this is on (`store billing-issue ID on`).
    public var hasBillingIssue: Bool

    /// Creates a subscription row.
    public init(
        originalTransactionID: String, latestTransactionID: String, productID: String, phase: Phase,
        willAutoRenew: Bool, hasBillingIssue: Bool
    ) {
        self.originalTransactionID = originalTransactionID
        self.latestTransactionID = latestTransactionID
        self.productID = productID
        self.phase = phase
        self.willAutoRenew = willAutoRenew
        self.hasBillingIssue = hasBillingIssue
    }
}
