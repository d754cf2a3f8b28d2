import Foundation

/// Why Apple's `verifyReceipt` endpoint did not confirm a receipt: every documented status
/// (21000–21010, 21100–21199) as its own case, plus what can go wrong on the way.
public enum VerifyReceiptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 21000: the request was not an HTTP POST.
    case requestNotPost
    /// 21001: a status the App Store no longer sends.
    case unusedStatus21001
    /// 21002: the receipt-data was malformed, or the service had a temporary issue.
    case malformedReceiptData
    /// 21003: the receipt could not be authenticated.
    case receiptNotAuthenticated
    /// 21004: the shared secret (password) does not match the account's.
    case sharedSecretMismatch
    /// 21005: the receipt server was temporarily unable to provide the receipt.
    case serverUnavailable
    /// 21006: the receipt is valid but the subscription has expired.
    case subscriptionExpired
    /// 21007: a sandbox receipt was sent to production.
    case sandboxReceiptSentToProduction
    /// 21008: a production receipt was sent to the sandbox.
    case productionReceiptSentToSandbox
    /// 21009: internal data access error.
    case internalDataAccessError
    /// 21010: the user account cannot be found or has been deleted.
    case accountNotFound
    /// 21100–21199: an internal data access error, with its code.
    case internalError(status: Int)
    /// A status this client does not know.
    case unknownStatus(Int)
    /// The server answered with an HTTP status other than 200.
    case httpStatus(Int)
    /// The body is not the JSON `verifyReceipt` returns.
    case malformedResponse(String)
    /// The request did not complete (timeout, connection refused…).
    case transport(String)
    /// The receipt is genuine but does not hold the transaction.
    case transactionNotInReceipt(transactionID: String)
    /// The receipt is for another app.
    case bundleIDMismatch(expected: String, found: String?)

    /// The error for a non-zero `status`, or nil for 0 (valid).
    public init?(status: Int) {
        switch status {
        case 0: return nil
        case 21100...21199: self = .internalError(status: status)
        default: self = Self.documented.first { $0.status == status }?.error ?? .unknownStatus(status)
        }
    }

    /// Each documented status with its case and what it means: the one table `init(status:)`
    /// and `description` read.
    private static let documented: [(status: Int, error: VerifyReceiptError, meaning: String)] = [
        (21000, .requestNotPost, ": the request was not an HTTP POST"),
        (21001, .unusedStatus21001, " (no longer used by the App Store)"),
        (21002, .malformedReceiptData, ": the receipt data was malformed or the service had a temporary issue"),
        (21003, .receiptNotAuthenticated, ": the receipt could not be authenticated"),
        (21004, .sharedSecretMismatch, ": the shared secret does not match the account's"),
        (21005, .serverUnavailable, ": the receipt server is temporarily unavailable"),
        (21006, .subscriptionExpired, ": the receipt is valid but the subscription has expired"),
        (21007, .sandboxReceiptSentToProduction, ": a sandbox receipt was sent to production"),
        (21008, .productionReceiptSentToSandbox, ": a production receipt was sent to the sandbox"),
        (21009, .internalDataAccessError, ": internal data access error"),
        (21010, .accountNotFound, ": the user account cannot be found or was deleted"),
    ]

    /// Whether trying again later may succeed: the purchase stays unfinished (unable to complete)
    /// rather than failing.
    public var isRetryable: Bool {
        switch self {
        case .requestNotPost, .unusedStatus21001, .malformedReceiptData, .serverUnavailable, .internalDataAccessError,
            .internalError, .unknownStatus, .httpStatus, .malformedResponse, .transport,
            .sandboxReceiptSentToProduction, .productionReceiptSentToSandbox:
            true
        case .receiptNotAuthenticated, .sharedSecretMismatch, .subscriptionExpired, .accountNotFound,
            .transactionNotInReceipt, .bundleIDMismatch:
            false
        }
    }

    public var description: String {
        switch self {
        case .internalError(let status): "verifyReceipt status \(status): internal data access error"
        case .unknownStatus(let status): "verifyReceipt returned unknown status \(status)"
        case .httpStatus(let status): "the verification server answered HTTP \(status)"
        case .malformedResponse(let detail): "the verification server's answer is not verifyReceipt JSON: \(detail)"
        case .transport(let detail): "the verification server could not be reached: \(detail)"
        case .transactionNotInReceipt(let id): "the verified receipt does not contain transaction \(id)"
        case .bundleIDMismatch(let expected, let found):
            "the verified receipt is for bundle ID \"\(found ?? "none")\", not \"\(expected)\""
        default:  // A documented status: `documented` says what it means.
            Self.documented.first { $0.error == self }.map { "verifyReceipt status \($0.status)\($0.meaning)" }
                ?? "verifyReceipt failed"
        }
    }
}

extension VerifyReceiptError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
