import Foundation
import StoreCore

/// A customer's request for a refund, made in the app (StoreKit 2's
/// `Transaction.beginRefundRequest`), waiting in the local store until the Transaction
/// Manager approves or declines it, as Apple's reviewers do.
public struct RefundRequest: Codable, Hashable, Sendable, Identifiable {
    /// Where a request stands, stored raw so newer values survive.
    public struct Status: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        /// Creates a status from its stored text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Waiting for a decision.
        public static let pending = Status(rawValue: "pending")
        /// Approved: the transaction was refunded.
        public static let approved = Status(rawValue: "approved")
        /// Declined: the transaction stays as it was.
        public static let declined = Status(rawValue: "declined")
        public var description: String { rawValue }
    }

    /// The request's identifier (a lowercase UUID).
    public var id: String
    /// The transaction the customer asked to be refunded.
    public var transactionID: String
    /// Its original transaction.
    public var originalTransactionID: String
    /// The product bought.
    public var productID: String
    /// The account that asked.
    public var accountID: String
    /// When the customer asked.
    public var requestedAt: Date
    /// Where it stands.
    public var status: Status
    /// When it was approved or declined.
    public var decidedAt: Date?
    /// The revocation reason of an approved refund (0 other, 1 an issue in the app), as
    /// `Transaction.revocationReason`.
    public var revocationReason: Int?
    /// Why the customer asked, as Apple's `consumptionRequestReason` (one of `reasons`); the
    /// `CONSUMPTION_REQUEST` notification carries it. Nil in requests journaled without one.
    public var consumptionRequestReason: String?
    /// Whether the app was told of the decision (`BackendEvent.refundRequestDecided`); a
    /// decision not yet told reaches the app when it next listens, in any process.
    public var isDeliveredToApp: Bool

    /// Creates a request.
    public init(
        id: String, transactionID: String, originalTransactionID: String, productID: String, accountID: String,
        requestedAt: Date, status: Status = .pending, decidedAt: Date? = nil, revocationReason: Int? = nil,
        isDeliveredToApp: Bool = false, consumptionRequestReason: String? = nil
    ) {
        self.consumptionRequestReason = consumptionRequestReason
        self.isDeliveredToApp = isDeliveredToApp
        self.id = id
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.accountID = accountID
        self.requestedAt = requestedAt
        self.status = status
        self.decidedAt = decidedAt
        self.revocationReason = revocationReason
    }

    /// Apple's `consumptionRequestReason` values, the reasons a customer picks on the refund sheet.
    public static let reasons = [
        "UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER",
    ]

    /// The decision as the engine hears it; nil while pending.
    public var decision: RefundDecision? {
        guard status != .pending, let decidedAt else { return nil }
        return RefundDecision(
            requestID: id, transactionID: transactionID, productID: productID, isApproved: status == .approved,
            date: decidedAt)
    }
}
