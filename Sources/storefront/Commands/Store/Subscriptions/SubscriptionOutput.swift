import Foundation
import LocalAppStore
import StoreCore

/// How the local store's subscriptions appear in `store subscriptions` (table and `--json`).
enum SubscriptionOutput {
    /// One subscription as a JSON object: originalTransactionID, groupID, productID,
    /// periodStart, periodEnd, willAutoRenew, autoRenewProductID, billingIssue,
    /// billingRetryStart, gracePeriodExpiresDate, expired, expirationDate, expirationIntent,
    /// billingPlanType, renewalBillingPlanType, commitment (billingPeriodNumber,
    /// totalBillingPeriods, expiresDate) (null when they do not apply).
    static func json(_ s: SubscriptionLifecycle) -> JSONText {
        .object([
            ("originalTransactionID", .string(s.originalTransactionID)),
            ("groupID", .string(s.groupID)),
            ("productID", .string(s.productID)),
            ("periodStart", .string(TransactionOutput.date(s.periodStart))),
            ("periodEnd", .string(TransactionOutput.date(s.periodEnd))),
            ("willAutoRenew", .bool(s.willAutoRenew && !s.isExpired)),
            ("autoRenewProductID", .string(s.autoRenewProductID)),
            ("billingIssue", .bool(s.hasBillingIssue)),
            ("billingRetryStart", .optional(s.billingRetryStart.map(TransactionOutput.date))),
            ("gracePeriodExpiresDate", .optional(s.graceEnd.map(TransactionOutput.date))),
            ("expired", .bool(s.isExpired)),
            ("expirationDate", .optional(s.expiration.map { TransactionOutput.date($0.date) })),
            ("expirationIntent", s.expiration.map { .string(intentName($0.intent)) } ?? .null),
            ("billingPlanType", .optional(s.billing?.planType.rawValue)),
            ("renewalBillingPlanType", .optional(s.renewalBillingPlanType?.rawValue)),
            (
                "commitment",
                s.billing?.commitment.map {
                    .object([
                        ("billingPeriodNumber", .number(String($0.billingPeriodNumber))),
                        ("totalBillingPeriods", .number(String($0.totalBillingPeriods))),
                        ("expiresDate", .string(TransactionOutput.date($0.expiresDate))),
                    ])
                } ?? .null
            ),
        ])
    }

    /// Subscriptions as table lines, oldest first, as they stand at `now` (the store clock's).
    static func table(_ subscriptions: [SubscriptionLifecycle], now: Date) -> [String] {
        TextTable(
            columns: [
                .init(header: "ORIGINAL"), .init(header: "PRODUCT", maximumWidth: 44), .init(header: "PERIOD END"),
                .init(header: "AUTO-RENEW"), .init(header: "NEXT PRODUCT", maximumWidth: 44), .init(header: "BILLING"),
                .init(header: "STATUS"), .init(header: "PLAN"),
            ],
            rows: subscriptions.map { s in
                [
                    s.originalTransactionID, s.productID, TransactionOutput.date(s.periodEnd),
                    s.willAutoRenew && !s.isExpired ? "on" : "off",
                    s.autoRenewProductID == s.productID ? "(same)" : s.autoRenewProductID,
                    billing(s, now: now), status(s), plan(s),
                ]
            }
        ).render()
    }

    /// `ok`, `issue` (the next renewal fails), `grace until DATE`, or `retry since DATE` (also
    /// once the grace period is over).
    static func billing(_ s: SubscriptionLifecycle, now: Date) -> String {
        if s.isExpired { return "—" }
        if let grace = s.graceEnd, s.isInGracePeriod(at: now) { return "grace until \(TransactionOutput.date(grace))" }
        if let retry = s.billingRetryStart { return "retry since \(TransactionOutput.date(retry))" }
        return s.hasBillingIssue ? "issue" : "ok"
    }

    /// `upfront`, `monthly: payment 3 of 12, commitment ends 2027-12-07` (and what it renews
    /// by then when that differs), or `—` for a product without billing plans.
    static func plan(_ s: SubscriptionLifecycle) -> String {
        guard let billing = s.billing else { return "—" }
        guard let c = billing.commitment else { return billing.planType == .monthly ? "monthly" : "upfront" }
        var text =
            "monthly: "
            + TransactionOutput.commitment(
                payment: c.billingPeriodNumber, of: c.totalBillingPeriods, ends: c.expiresDate)
        if s.isExpired { return text }
        if !s.willAutoRenew {
            text += ", then ends"
        } else if s.renewalBillingPlanType == .billedUpfront || s.autoRenewProductID != s.productID {
            text += ", then \(s.autoRenewProductID) \(s.renewalBillingPlanType == .monthly ? "monthly" : "upfront")"
        }
        return text
    }

    /// `active`, or `expired DATE (intent)`.
    static func status(_ s: SubscriptionLifecycle) -> String {
        guard let expiration = s.expiration else { return "active" }
        return "expired \(TransactionOutput.date(expiration.date)) (\(intentName(expiration.intent)))"
    }

    /// Apple's expiration intent by name: cancelled, billingError, priceIncrease,
    /// productUnavailable, unknown (or the raw value for a newer one).
    static func intentName(_ intent: RenewalInfo.ExpirationIntent) -> String {
        switch intent {
        case .cancelled: "cancelled"
        case .billingError: "billingError"
        case .priceIncrease: "priceIncrease"
        case .productUnavailable: "productUnavailable"
        case .unknown: "unknown"
        default: String(intent.rawValue)
        }
    }
}
