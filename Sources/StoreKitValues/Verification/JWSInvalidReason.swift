import Foundation

/// Why a JWS signed transaction or renewal info is not acceptable.
public enum JWSInvalidReason: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not three base64url parts, or a header that is not JSON.
    case malformed(String)
    /// The header names an algorithm other than ES256.
    case unsupportedAlgorithm(String)
    /// The header carries no `x5c` chain.
    case missingCertificateChain
    /// A certificate in `x5c` cannot be read.
    case unreadableCertificate(index: Int, reason: String)
    /// The signature does not match the header and payload (changed, or another key).
    case signatureMismatch
    /// A certificate had expired at the time of the check.
    case certificateExpired(subject: String, notAfter: Date?, checkedAt: Date)
    /// A certificate was not yet valid at the time of the check.
    case certificateNotYetValid(subject: String, notBefore: Date?, checkedAt: Date)
    /// The chain does not end at the trusted root.
    case untrustedChain(subject: String, reason: String)
    /// Another problem with a certificate of the chain.
    case invalidCertificate(subject: String, reason: String)
    /// A certificate chains to the root but lacks the marker extension of its role (App Store
    /// signing leaf, WWDR intermediate): it was not issued for signing App Store data.
    case certificateNotAuthorized(subject: String, missingMarker: String)
    /// The payload is not the expected JSON.
    case unreadablePayload(String)

    public var description: String {
        switch self {
        case .malformed(let detail): "not a JWS in compact form: \(detail)"
        case .unsupportedAlgorithm(let alg): "the JWS uses algorithm \"\(alg)\", only ES256 is accepted"
        case .missingCertificateChain: "the JWS header has no x5c certificate chain"
        case .unreadableCertificate(let index, let reason): "x5c certificate \(index) cannot be read: \(reason)"
        case .signatureMismatch:
            "the JWS signature does not match its content (it was changed or signed with another key)"
        case .certificateExpired(let subject, let notAfter, let at):
            Self.expiredText(subject, notAfter: notAfter, checkedAt: at)
        case .certificateNotYetValid(let subject, let notBefore, let at):
            Self.notYetValidText(subject, notBefore: notBefore, checkedAt: at)
        case .untrustedChain(let subject, let reason):
            "the JWS is not signed under the trusted root (\"\(subject)\": \(reason))"
        case .invalidCertificate(let subject, let reason): Self.invalidCertificateText(subject, reason: reason)
        case .certificateNotAuthorized(let subject, let marker):
            "certificate \"\(subject)\" was not issued for App Store signing (it lacks extension \(marker))"
        case .unreadablePayload(let detail): "the JWS payload cannot be read: \(detail)"
        }
    }
}

extension JWSInvalidReason: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
