import Foundation

/// Where a monthly payment stands in its 12-month commitment, named as Apple's
/// `TransactionCommitmentInfo`. Prices in milliunits, dates in milliseconds since 1970.
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable {
    /// Which payment of the commitment the transaction is, from 1 (Apple allows 1 to 12).
    public var billingPeriodNumber: Int32?
    /// How many payments the commitment has.
    public var totalBillingPeriods: Int32?
    /// The whole commitment's price, in milliunits of the transaction's currency.
    public var commitmentPrice: Int64?
    /// When the commitment ends.
    public var commitmentExpiresDate: Date?

    /// Creates commitment info; set the fields that apply.
    public init(
        billingPeriodNumber: Int32? = nil, totalBillingPeriods: Int32? = nil, commitmentPrice: Int64? = nil,
        commitmentExpiresDate: Date? = nil
    ) {
        self.billingPeriodNumber = billingPeriodNumber
        self.totalBillingPeriods = totalBillingPeriods
        self.commitmentPrice = commitmentPrice
        self.commitmentExpiresDate = commitmentExpiresDate
    }
}
