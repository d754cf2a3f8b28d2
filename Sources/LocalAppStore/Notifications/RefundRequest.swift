import Foundation

/// A customer's request for a refund of one transaction (`store refund-request ID`), and how
/// the App Store answered it. The request itself sends `CONSUMPTION_REQUEST`; approving it
/// refunds (`REFUND`), declining sends `REFUND_DECLINED`.
public struct RefundRequest: Codable, Hashable, Sendable {
    /// Where a request stands, stored raw.
    public struct Status: RawRepresentable, Codable, Hashable, Sendable {
        /// The status's name.
        public let rawValue: String
        /// Wraps a status, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Waiting for the App Store's decision.
        public static let pending = Status(rawValue: "pending")
        /// Refunded.
        public static let approved = Status(rawValue: "approved")
        /// Declined.
        public static let declined = Status(rawValue: "declined")
    }

    /// The transaction the customer wants refunded.
    public var transactionID: String
    /// The account it belongs to.
    public var accountID: String
    /// Apple's `consumptionRequestReason`: `UNINTENDED_PURCHASE`, `FULFILLMENT_ISSUE`,
    /// `UNSATISFIED_WITH_PURCHASE`, `LEGAL` or `OTHER`.
    public var reason: String
    /// When the customer asked (store clock).
    public var requestDate: Date
    /// Where it stands.
    public var status: Status

    /// Apple's `consumptionRequestReason` values.
    public static let reasons = ["UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER"]
}
