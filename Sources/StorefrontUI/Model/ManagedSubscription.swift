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
    /// The product the next period will be (another one after a downgrade or crossgrade).
    public var nextProductID: String
    /// Where it stands now.
    public var phase: Phase
    /// Off after the customer cancels.
    public var willAutoRenew: Bool
    /// Renewals fail while this is on (`store billing-issue ID on`).
    public var hasBillingIssue: Bool

    /// Whether billing has failed (in grace or in billing retry), by a billing issue or the
    /// store's billing-retry setting.
    public var isInBillingRetry: Bool {
        switch phase {
        case .gracePeriod, .billingRetry: true
        default: false
        }
    }

    /// Whether the subscription has ended.
    public var hasEnded: Bool {
        if case .expired = phase { true } else { false }
    }

    /// Creates a subscription row.
    public init(
        originalTransactionID: String, latestTransactionID: String, productID: String, nextProductID: String? = nil,
        phase: Phase, willAutoRenew: Bool, hasBillingIssue: Bool
    ) {
        self.originalTransactionID = originalTransactionID
        self.latestTransactionID = latestTransactionID
        self.productID = productID
        self.nextProductID = nextProductID ?? productID
        self.phase = phase
        self.willAutoRenew = willAutoRenew
        self.hasBillingIssue = hasBillingIssue
    }
}
