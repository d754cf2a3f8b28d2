import Foundation
import StoreKitValues

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

    /// The customer's answer to a price increase announced in the current period.
    public enum PriceConsent: Hashable, Sendable {
        /// Not answered yet: without consent by the period's end, the subscription ends there.
        case pending
        /// Consented: it renews at the new price.
        case accepted
        /// Declined: it ends at the period's end.
        case declined
    }

    /// The subscription's original transaction ID (every renewal carries it).
    public var originalTransactionID: String
    /// The transaction of its current (or last) period.
    public var latestTransactionID: String
    /// The product of the current period.
    public var productID: String
    /// The product the next period will be (another one after a downgrade or crossgrade).
    public var nextProductID: String
    /// The billing plan the next period (or, inside a commitment, the next commitment) is paid
    /// by; nil for a product without billing plans.
    public var nextBillingPlanType: BillingPlanType?
    /// Where it stands now.
    public var phase: Phase
    /// Off after the customer cancels.
    public var willAutoRenew: Bool
    /// Renewals fail while this is on (`store billing-issue ID on`).
    public var hasBillingIssue: Bool
    /// A price increase announced in the current period, by the customer's answer (nil: none).
    public var priceConsent: PriceConsent?
    /// Why it ended, once it did (Apple's expiration intent).
    public var expirationIntent: RenewalInfo.ExpirationIntent?

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

    /// Whether the current period's end renews it: auto-renew is on and no price increase
    /// waits for consent or was declined.
    public var renews: Bool { willAutoRenew && (priceConsent == nil || priceConsent == .accepted) }

    /// Creates a subscription row.
    public init(
        originalTransactionID: String, latestTransactionID: String, productID: String, nextProductID: String? = nil,
        nextBillingPlanType: BillingPlanType? = nil, phase: Phase, willAutoRenew: Bool, hasBillingIssue: Bool,
        priceConsent: PriceConsent? = nil, expirationIntent: RenewalInfo.ExpirationIntent? = nil
    ) {
        self.nextBillingPlanType = nextBillingPlanType
        self.originalTransactionID = originalTransactionID
        self.latestTransactionID = latestTransactionID
        self.productID = productID
        self.nextProductID = nextProductID ?? productID
        self.phase = phase
        self.willAutoRenew = willAutoRenew
        self.hasBillingIssue = hasBillingIssue
        self.priceConsent = priceConsent
        self.expirationIntent = expirationIntent
    }
}
