import Foundation

/// What `Store.beginRefundRequest(for:)` returns, as StoreKit 2's
/// `Transaction.RefundRequestStatus`: the request reached the App Store, or the customer
/// did not send it.
public enum RefundRequestStatus: String, Codable, Hashable, Sendable {
    /// The request was submitted; its outcome arrives later as `StoreEvent.refundRequestDecided`.
    case success
    /// The customer cancelled the request.
    case userCancelled
}

/// Why a refund request could not be made, as StoreKit 2's `Transaction.RefundRequestError`.
public enum RefundRequestError: Error, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The customer already asked for a refund of this transaction.
    case duplicateRequest(transactionID: String)
    /// The request could not be made (an unknown transaction, a consumable used up, the store
    /// unreachable).
    case failed(String)

    public var description: String {
        switch self {
        case .duplicateRequest(let id): "A refund of transaction \(id) was requested already."
        case .failed(let why): "The refund request failed: \(why)"
        }
    }
}

extension RefundRequestError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
