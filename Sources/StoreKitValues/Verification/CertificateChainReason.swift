import Foundation

/// The four reasons a receipt's and a JWS's reason enums both give for a chain that fails
/// `CertificateChain.verify`, the one check both run: worded once here, mapped from its failure
/// in Receipts' `CertificateChainReason+Chain.swift` (that mapping needs OpenSSL, these values
/// do not). The enums' cases of these names are the witnesses.
package protocol CertificateChainReason {
    /// A certificate had expired at `checkedAt`.
    static func certificateExpired(subject: String, notAfter: Date?, checkedAt: Date) -> Self
    /// A certificate was not yet valid at `checkedAt`.
    static func certificateNotYetValid(subject: String, notBefore: Date?, checkedAt: Date) -> Self
    /// The chain does not end at the trusted root.
    static func untrustedChain(subject: String, reason: String) -> Self
    /// Another problem with a certificate of the chain.
    static func invalidCertificate(subject: String, reason: String) -> Self
}

extension CertificateChainReason {
    /// The words of `certificateExpired`.
    static func expiredText(_ subject: String, notAfter: Date?, checkedAt: Date) -> String {
        "certificate \"\(subject)\" had expired (not after \(notAfter.map(ReceiptDate.format) ?? "?")) at \(ReceiptDate.format(checkedAt))"
    }

    /// The words of `certificateNotYetValid`.
    static func notYetValidText(_ subject: String, notBefore: Date?, checkedAt: Date) -> String {
        "certificate \"\(subject)\" was not yet valid (not before \(notBefore.map(ReceiptDate.format) ?? "?")) at \(ReceiptDate.format(checkedAt))"
    }

    /// The words of `invalidCertificate`.
    static func invalidCertificateText(_ subject: String, reason: String) -> String {
        "certificate \"\(subject)\" is not acceptable: \(reason)"
    }
}

extension JWSInvalidReason: CertificateChainReason {}
extension ReceiptInvalidReason: CertificateChainReason {}
