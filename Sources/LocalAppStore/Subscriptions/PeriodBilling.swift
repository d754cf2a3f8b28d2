import Foundation
import StoreCore

/// How one period of a subscription is paid for: its billing plan and, for a monthly plan, its
/// place in the 12-month commitment. A subscription whose product has no billing plans in the
/// catalog has none (it is billed up front, as before billing plans existed).
public struct PeriodBilling: Codable, Hashable, Sendable {
    /// The period's plan.
    public var planType: BillingPlanType
    /// The commitment the period belongs to, for a monthly plan.
    public var commitment: CommitmentProgress?

    /// The billing of a first period by `plan` that starts at `start`: payment 1 of a new
    /// commitment for a monthly plan, whose end is 12 months later at `rate`.
    public static func first(of plan: BillingPlanType, startingAt start: Date, rate: StoreTimeRate) -> PeriodBilling {
        guard plan.hasCommitment else { return PeriodBilling(planType: plan) }
        let total = CommitmentProgress.monthsInCommitment
        let firstEnd = rate.end(of: month, startingAt: start)
        return PeriodBilling(
            planType: plan,
            commitment: CommitmentProgress(
                billingPeriodNumber: 1, totalBillingPeriods: total,
                expiresDate: CommitmentProgress.end(afterPeriodEndingAt: firstEnd, number: 1, total: total, rate: rate))
        )
    }

    /// How long one billing period of this plan lasts for a product renewing every
    /// `productPeriod`: one month for a monthly plan, the product's period up front.
    public func billingPeriod(of productPeriod: SubscriptionPeriod) -> SubscriptionPeriod {
        commitment == nil ? productPeriod : Self.month
    }

    /// One month, a monthly plan's billing period.
    static let month = SubscriptionPeriod(value: 1, unit: .month)
}
