import Foundation

extension Transaction {
    /// Where a monthly payment stands in its 12-month commitment (StoreKit's
    /// `Transaction.CommitmentInfo`; the App Store Server's `TransactionCommitmentInfo`).
    public struct CommitmentInfo: Codable, Hashable, Sendable {
        /// Which payment of the commitment this transaction is, from 1.
        public let billingPeriodNumber: Int
        /// How many payments the commitment has (12).
        public let totalBillingPeriods: Int
        /// The whole commitment's price, in the transaction's currency.
        public let price: Decimal
        /// When the commitment ends: the end of its last billing period as now scheduled.
        public let expirationDate: Date

        /// Creates a payment's place in its commitment.
        public init(billingPeriodNumber: Int, totalBillingPeriods: Int, price: Decimal, expirationDate: Date) {
            self.billingPeriodNumber = billingPeriodNumber
            self.totalBillingPeriods = totalBillingPeriods
            self.price = price
            self.expirationDate = expirationDate
        }
    }
}
