import Foundation

/// A signed value and whether its signature checked out, as StoreKit 2's `VerificationResult`
/// shapes it: `.verified` when the JWS is genuine, `.unverified` with the value it claims and
/// why it cannot be trusted.
public enum VerificationResult<SignedType: Hashable & Sendable>: Hashable, Sendable {
    /// The value, signed by a trusted root and matching this app.
    case verified(SignedType)
    /// The value the JWS claims, and why it is not to be trusted.
    case unverified(SignedType, VerificationError)

    /// Why a signed value is not trusted, named as StoreKit 2's
    /// `VerificationResult.VerificationError` names it (plus the app-identifier and
    /// environment checks of Apple's `SignedDataVerifier`); each carries what failed.
    public enum VerificationError: Error, Hashable, Sendable, CustomStringConvertible {
        /// A certificate of the chain was revoked.
        case revokedCertificate(String)
        /// The chain does not end at a trusted root, or a certificate is not valid.
        case invalidCertificateChain(String)
        /// The device verification does not match this device.
        case invalidDeviceVerification(String)
        /// The JWS or its payload cannot be read.
        case invalidEncoding(String)
        /// The signature does not match the content.
        case invalidSignature(String)
        /// The payload lacks a property the value needs.
        case missingRequiredProperties(String)
        /// It was issued for another app (Apple's `SignedDataVerifier`: `INVALID_APP_IDENTIFIER`).
        case invalidAppIdentifier(String)
        /// It comes from an environment not accepted (`INVALID_ENVIRONMENT`).
        case invalidEnvironment(String)

        /// What failed, in words.
        public var description: String {
            switch self {
            case .revokedCertificate(let why): "revoked certificate: \(why)"
            case .invalidCertificateChain(let why): "invalid certificate chain: \(why)"
            case .invalidDeviceVerification(let why): "invalid device verification: \(why)"
            case .invalidEncoding(let why): "invalid encoding: \(why)"
            case .invalidSignature(let why): "invalid signature: \(why)"
            case .missingRequiredProperties(let why): "missing required properties: \(why)"
            case .invalidAppIdentifier(let why): "issued for another app: \(why)"
            case .invalidEnvironment(let why): "environment not accepted: \(why)"
            }
        }
    }

    /// The value when verified.
    /// - Throws: the `VerificationError` when it is not.
    public var payloadValue: SignedType {
        get throws(VerificationError) {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }

    /// The value, verified or not (StoreKit 2's `unsafePayloadValue`).
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let value), .unverified(let value, _): value
        }
    }

    /// Why the value is not trusted; nil when it is verified.
    public var verificationError: VerificationError? {
        if case .unverified(_, let error) = self { return error }
        return nil
    }

    /// Whether the value is verified.
    public var isVerified: Bool { verificationError == nil }
}

extension VerificationResult.VerificationError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
