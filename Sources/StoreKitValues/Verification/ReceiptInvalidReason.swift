import Foundation

/// Why a receipt is not acceptable, one case per thing a person would fix differently.
public enum ReceiptInvalidReason: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file cannot be read as a receipt (truncated, not BER, not SignedData, missing fields).
    case unreadable(ReceiptError)
    /// The signature does not match the content: the receipt was changed after signing.
    case signatureMismatch(String)
    /// The container does not carry its signer's certificate (certificates swapped or removed).
    case signerCertificateMissing(String)
    /// A certificate in the chain had expired at the date the receipt was checked.
    case certificateExpired(subject: String, notAfter: Date?, checkedAt: Date)
    /// A certificate in the chain was not yet valid at the date the receipt was checked.
    case certificateNotYetValid(subject: String, notBefore: Date?, checkedAt: Date)
    /// The chain does not end at the trusted root (signed by someone else).
    case untrustedChain(subject: String, reason: String)
    /// Another problem with a certificate of the chain.
    case invalidCertificate(subject: String, reason: String)
    /// The signer chains to the root but is not a receipt-signing certificate (it lacks the
    /// marker extension), e.g. a developer certificate issued under the same root.
    case signerNotAuthorized(subject: String, missingMarker: String)
    /// The receipt is for another app.
    case bundleIDMismatch(expected: String, found: String)
    /// The receipt is for another version of the app.
    case appVersionMismatch(expected: String, found: String)
    /// The SHA-1 hash does not match this device's identifier: the receipt was made for another device.
    case deviceHashMismatch
    /// The receipt does not contain the transaction being verified.
    case transactionNotFound(transactionID: String)

    public var description: String {
        switch self {
        case .unreadable(let error): "the receipt cannot be read: \(error)"
        case .signatureMismatch(let detail):
            "the receipt's signature does not match its content (it was changed): \(detail)"
        case .signerCertificateMissing(let detail): "the receipt does not carry its signer's certificate: \(detail)"
        case .certificateExpired(let subject, let notAfter, let at):
            Self.expiredText(subject, notAfter: notAfter, checkedAt: at)
        case .certificateNotYetValid(let subject, let notBefore, let at):
            Self.notYetValidText(subject, notBefore: notBefore, checkedAt: at)
        case .untrustedChain(let subject, let reason):
            "the receipt is not signed under the trusted root (\"\(subject)\": \(reason))"
        case .invalidCertificate(let subject, let reason): Self.invalidCertificateText(subject, reason: reason)
        case .signerNotAuthorized(let subject, let marker):
            "certificate \"\(subject)\" is not a receipt-signing certificate (it lacks extension \(marker))"
        case .bundleIDMismatch(let expected, let found):
            "the receipt is for bundle ID \"\(found)\", not \"\(expected)\""
        case .appVersionMismatch(let expected, let found):
            "the receipt is for app version \"\(found)\", not \"\(expected)\""
        case .deviceHashMismatch: "the receipt's hash does not match this device's identifier (made for another device)"
        case .transactionNotFound(let id): "the receipt does not contain transaction \(id)"
        }
    }
}

extension ReceiptInvalidReason: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
