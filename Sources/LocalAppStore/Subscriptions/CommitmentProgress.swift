import Foundation
import StoreCore

/// Where a subscription stands in its 12-month commitment: which monthly payment the current
/// period is, of how many, and when the commitment ends as now scheduled (the end of its last
/// billing period; it moves when a billing retry or a renewal-date extension moves the months).
public struct CommitmentProgress: Codable, Hashable, Sendable {
    /// The current period's payment, from 1.
    public var billingPeriodNumber: Int
    /// How many payments the commitment has.
    public var totalBillingPeriods: Int = Self.monthsInCommitment
    /// When the commitment ends.
    public var expiresDate: Date

    /// The payments of Apple's only commitment: one a month for 12 months.
    public static let monthsInCommitment = 12
    /// How long Apple's only commitment lasts: one year.
    public static let period = SubscriptionPeriod(value: 1, unit: .year)

    /// Whether a payment of this commitment is still to come after the current one.
    public var hasPaymentsLeft: Bool { billingPeriodNumber < totalBillingPeriods }

    /// The end of the commitment whose current billing period ends at `periodEnd` and is
    /// payment `number` of `total`: the remaining months added at `rate`.
    static func end(
        afterPeriodEndingAt periodEnd: Date, number: Int, total: Int, rate: StoreTimeRate
    ) -> Date {
        var end = periodEnd
        for _ in number..<max(total, number) { end = rate.end(of: PeriodBilling.month, startingAt: end) }
        return end
    }
}
