import COpenSSL
import Foundation

/// Checks that a certificate chains to a trusted root at a given time, through OpenSSL's
/// `X509_verify_cert` with `X509_VERIFY_PARAM_set_time`.
public enum CertificateChain {
    /// Why a chain is not trusted, in words a person can act on.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// A certificate in the chain had expired at the time of the check.
        case expired(subject: String, notAfter: Date?)
        /// A certificate in the chain was not yet valid at the time of the check.
        case notYetValid(subject: String, notBefore: Date?)
        /// The chain does not end at any of the trusted roots.
        case untrusted(subject: String, reason: String)
        /// Another verification error (bad certificate signature, not a CA, path too long…).
        case invalid(subject: String, reason: String)

        public var description: String {
            switch self {
            case .expired(let subject, let notAfter):
                "certificate \"\(subject)\" had expired (not after \(notAfter.map { "\($0)" } ?? "?"))"
            case .notYetValid(let subject, let notBefore):
                "certificate \"\(subject)\" was not yet valid (not before \(notBefore.map { "\($0)" } ?? "?"))"
            case .untrusted(let subject, let reason):
                "certificate \"\(subject)\" does not chain to the trusted root: \(reason)"
            case .invalid(let subject, let reason):
                "certificate \"\(subject)\" is not acceptable: \(reason)"
            }
        }
    }

    /// Verifies `leaf` against `trustedRoots` at `date`, using `intermediates` as untrusted helpers.
    /// - Returns: nil when the chain is trusted, else why not.
    /// - Throws: `CryptoError` only if OpenSSL cannot set up the check.
    public static func verify(
        leaf: X509Certificate, intermediates: [X509Certificate], trustedRoots: [X509Certificate], at date: Date
    ) throws(CryptoError) -> Failure? {
        guard !trustedRoots.isEmpty else {
            throw CryptoError("certificate chain verification", reason: "no trusted root given")
        }
        guard let store = X509_STORE_new() else { throw CryptoError("X509_STORE_new") }
        defer { X509_STORE_free(store) }
        for root in trustedRoots {
            guard X509_STORE_add_cert(store, root.pointer) == 1 else { throw CryptoError("X509_STORE_add_cert") }
        }
        let untrusted = try CertificateStack(intermediates)
        guard let context = X509_STORE_CTX_new() else { throw CryptoError("X509_STORE_CTX_new") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted.pointer) == 1 else {
            throw CryptoError("X509_STORE_CTX_init")
        }
        // A date from a payload may be anything; only a representable time reaches OpenSSL.
        guard let seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) else {
            throw CryptoError(
                "certificate chain verification", reason: "the date \(date.timeIntervalSince1970) s is out of range")
        }
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), seconds)
        let ok = X509_verify_cert(context)
        defer { ERR_clear_error() }
        if ok == 1 { return nil }
        let code = X509_STORE_CTX_get_error(context)
        let reason = String(cString: X509_verify_cert_error_string(Int(code)))
        let current = X509_STORE_CTX_get_current_cert(context).map { X509Certificate(retaining: $0) } ?? leaf
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return .expired(subject: current.subject, notAfter: current.notAfter)
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return .notYetValid(subject: current.subject, notBefore: current.notBefore)
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
            X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            return .untrusted(subject: current.subject, reason: reason)
        default:
            return .invalid(subject: current.subject, reason: reason)
        }
    }
}

extension CertificateChain.Failure: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
