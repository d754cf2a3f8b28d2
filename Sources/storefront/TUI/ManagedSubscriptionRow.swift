import Foundation
import LocalAppStore
import StoreCore
import StorefrontUI

/// A subscription as the local store runs it, in the Transaction Manager's terms.
enum ManagedSubscriptionRow {
    /// Where `lifecycle` stands at `now`, its current period's price increase and, once ended,
    /// why; it names its latest transaction in `history` (newest first).
    static func make(
        _ lifecycle: SubscriptionLifecycle, increase: PriceIncrease?, history: [Transaction], now: Date
    ) -> ManagedSubscription {
        let phase: ManagedSubscription.Phase =
            if let expiration = lifecycle.expiration {
                .expired(at: expiration.date)
            } else if let grace = lifecycle.graceEnd, lifecycle.isInGracePeriod(at: now) {
                .gracePeriod(until: grace)
            } else if let retry = lifecycle.billingRetryStart {
                .billingRetry(since: retry)
            } else {
                .active(until: lifecycle.periodEnd)
            }
        let latest = history.first { $0.originalTransactionID == lifecycle.originalTransactionID }
        return ManagedSubscription(
            originalTransactionID: lifecycle.originalTransactionID,
            latestTransactionID: latest?.transactionID ?? lifecycle.originalTransactionID,
            productID: lifecycle.productID, nextProductID: lifecycle.autoRenewProductID,
            nextBillingPlanType: lifecycle.renewalBillingPlanType, phase: phase,
            willAutoRenew: lifecycle.willAutoRenew, hasBillingIssue: lifecycle.hasBillingIssue,
            priceConsent: increase.flatMap { priceConsent($0.status) }, expirationIntent: lifecycle.expiration?.intent)
    }

    /// A price increase's consent as the Transaction Manager shows it (nil for a status this
    /// version does not know).
    static func priceConsent(_ status: PriceIncrease.Status) -> ManagedSubscription.PriceConsent? {
        switch status {
        case .pending: .pending
        case .accepted: .accepted
        case .declined: .declined
        default: nil
        }
    }
}
