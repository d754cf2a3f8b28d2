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
        case 21000: self = .requestNotPost
        case 21001: self = .unusedStatus21001
        case 21002: self = .malformedReceiptData
        case 21003: self = .receiptNotAuthenticated
        case 21004: self = .sharedSecretMismatch
        case 21005: self = .serverUnavailable
        case 21006: self = .subscriptionExpired
        case 21007: self = .sandboxReceiptSentToProduction
        case 21008: self = .productionReceiptSentToSandbox
        case 21009: self = .internalDataAccessError
        case 21010: self = .accountNotFound
        case 21100...21199: self = .internalError(status: status)
        default: self = .unknownStatus(status)
        }
    }

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
        case .requestNotPost: "verifyReceipt status 21000: the request was not an HTTP POST"
        case .unusedStatus21001: "verifyReceipt status 21001 (no longer used by the App Store)"
        case .malformedReceiptData: "verifyReceipt status 21002: the receipt data was malformed or the service had a temporary issue"
        case .receiptNotAuthenticated: "verifyReceipt status 21003: the receipt could not be authenticated"
        case .sharedSecretMismatch: "verifyReceipt status 21004: the shared secret does not match the account's"
        case .serverUnavailable: "verifyReceipt status 21005: the receipt server is temporarily unavailable"
        case .subscriptionExpired: "verifyReceipt status 21006: the receipt is valid but the subscription has expired"
        case .sandboxReceiptSentToProduction: "verifyReceipt status 21007: a sandbox receipt was sent to production"
        case .productionReceiptSentToSandbox: "verifyReceipt status 21008: a production receipt was sent to the sandbox"
        case .internalDataAccessError: "verifyReceipt status 21009: internal data access error"
        case .accountNotFound: "verifyReceipt status 21010: the user account cannot be found or was deleted"
        case .internalError(let status): "verifyReceipt status \(status): internal data access error"
        case .unknownStatus(let status): "verifyReceipt returned unknown status \(status)"
        case .httpStatus(let status): "the verification server answered HTTP \(status)"
        case .malformedResponse(let detail): "the verification server's answer is not verifyReceipt JSON: \(detail)"
        case .transport(let detail): "the verification server could not be reached: \(detail)"
        case .transactionNotInReceipt(let id): "the verified receipt does not contain transaction \(id)"
        case .bundleIDMismatch(let expected, let found): "the verified receipt is for bundle ID \"\(found ?? "none")\", not \"\(expected)\""
        }
    }
}
