import Foundation

/// The App Store's answer to a refund request the app made (`Store.beginRefundRequest`): the
/// app hears it on the event stream, and an approved refund's revoked transaction on
/// `transactionUpdates()` as well (with `revocationDate` and `revocationReason`).
public struct RefundDecision: Codable, Hashable, Sendable {
    /// The refund request's identifier.
    public var requestID: String
    /// The transaction the customer asked to be refunded.
    public var transactionID: String
    /// Its product.
    public var productID: String
    /// Whether the refund was approved (the transaction is revoked) or declined (it stands).
    public var isApproved: Bool
    /// When it was decided.
    public var date: Date

    /// Creates a decision.
    public init(requestID: String, transactionID: String, productID: String, isApproved: Bool, date: Date) {
        self.requestID = requestID
        self.transactionID = transactionID
        self.productID = productID
        self.isApproved = isApproved
        self.date = date
    }
}
