internal import Crypto
import Foundation
internal import Receipts

/// Verifies a signed app transaction (JWS) as StoreKit 2 does before `AppTransaction.shared`
/// says `.verified`: the `x5c` chain to a trusted root and the signature, the bundle ID and
/// environment, the required members, and (when this device's identifier is known) the
/// device verification hash.
public struct AppTransactionVerifier: Sendable {
    /// What the app transaction must match. Immutable.
    public struct Configuration: Sendable, Hashable {
        /// DER or PEM encodings of the trusted roots (Apple's root, or the local App Store's).
        public var trustedRoots: [Data]
        /// Accept Xcode's single self-signed certificate.
        public var trustXcodeSelfSigned: Bool
        /// The app's bundle identifier.
        public var bundleID: String
        /// The environments accepted (raw values, e.g. `Sandbox`).
        public var environments: Set<String>
        /// This device's identifier (`identifierForVendor`); nil skips the device verification check.
        public var deviceIdentifier: UUID?
        /// When to check the certificates; nil checks at the payload's `signedDate`.
        public var verificationDate: Date?

        /// Creates a configuration.
        /// - Parameters:
        ///   - trustedRoots: DER or PEM encodings of the trusted roots.
        ///   - trustXcodeSelfSigned: accept Xcode's single self-signed certificate.
        ///   - bundleID: the app's bundle identifier.
        ///   - environments: the environments accepted.
        ///   - deviceIdentifier: this device's identifier; nil skips the device check.
        ///   - verificationDate: when to check the certificates; nil: the payload's `signedDate`.
        public init(
            trustedRoots: [Data], trustXcodeSelfSigned: Bool = false, bundleID: String,
            environments: Set<AppStoreEnvironment>, deviceIdentifier: UUID? = nil, verificationDate: Date? = nil
        ) {
            self.trustedRoots = trustedRoots
            self.trustXcodeSelfSigned = trustXcodeSelfSigned
            self.bundleID = bundleID
            self.environments = Set(environments.map(\.rawValue))
            self.deviceIdentifier = deviceIdentifier
            self.verificationDate = verificationDate
        }
    }

    /// The error of an unverified app transaction.
    public typealias VerificationError = VerificationResult<AppTransaction>.VerificationError

    /// What the verifier checks against.
    public let configuration: Configuration
    private let verifier: JWSVerifier

    /// Creates a verifier.
    /// - Throws: `ReceiptValidatorError` when no root is given (and Xcode's case is not
    ///   trusted) or a root is unreadable.
    public init(configuration: Configuration) throws(ReceiptValidatorError) {
        self.configuration = configuration
        self.verifier = try JWSVerifier(
            trustedRoots: configuration.trustedRoots.map { Array($0) },
            trustXcodeSelfSigned: configuration.trustXcodeSelfSigned)
    }

    /// Verifies a signed app transaction.
    /// - Returns: `.verified` when every check passes, else `.unverified` with what the JWS
    ///   claims and the first check that failed.
    /// - Throws: `.invalidEncoding` when the JWS cannot be read at all (no value to return).
    public func verify(_ jws: String) throws(VerificationError) -> VerificationResult<AppTransaction> {
        let (transaction, missing) = try Self.decode(jws)
        if case .invalid(let reason) = verifier.verifyAppTransaction(jws, at: configuration.verificationDate) {
            return .unverified(transaction, Self.error(for: reason))
        }
        guard missing.isEmpty else {
            return .unverified(transaction, .missingRequiredProperties(missing.joined(separator: ", ")))
        }
        guard transaction.bundleID == configuration.bundleID else {
            return .unverified(
                transaction,
                .invalidAppIdentifier(
                    "the app transaction is for bundle ID \"\(transaction.bundleID)\", not \"\(configuration.bundleID)\""
                ))
        }
        guard configuration.environments.contains(transaction.rawEnvironment) else {
            return .unverified(
                transaction,
                .invalidEnvironment(
                    "\"\(transaction.rawEnvironment)\"; accepted: \(configuration.environments.sorted().joined(separator: ", "))"
                ))
        }
        if let device = configuration.deviceIdentifier {
            guard let nonce = transaction.deviceVerificationNonce,
                let expected = try? Self.deviceVerification(nonce: nonce, device: device),
                expected == transaction.deviceVerification
            else {
                return .unverified(
                    transaction,
                    .invalidDeviceVerification(
                        "deviceVerification is not SHA-384 of its nonce and this device's identifier \(device.uuidString.lowercased())"
                    ))
            }
        }
        return .verified(transaction)
    }

    /// Reads what a signed app transaction claims, without checking it.
    /// - Returns: the value and the names of required members it lacks.
    /// - Throws: `.invalidEncoding` when the JWS or its payload cannot be read.
    public static func decode(
        _ jws: String
    ) throws(VerificationError) -> (transaction: AppTransaction, missing: [String]) {
        switch JWSVerifier.decodeUnverifiedPayload(jws, as: JWSAppTransactionDecodedPayload.self) {
        case .failure(let reason): throw .invalidEncoding(reason.description)
        case .success(let payload):
            return AppTransaction.make(payload, jws: jws.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// SHA-384 of the lowercase nonce followed by the lowercase device identifier, as StoreKit
    /// documents `deviceVerification`. The one computation of it: the local store signs with it.
    /// - Throws: `.invalidDeviceVerification` naming the failure when OpenSSL cannot hash.
    public static func deviceVerification(nonce: UUID, device: UUID) throws(VerificationError) -> Data {
        let text = nonce.uuidString.lowercased() + device.uuidString.lowercased()
        do {
            return Data(try Digest.hash(.sha384, Array(text.utf8)))
        } catch {
            throw .invalidDeviceVerification("SHA-384 could not be computed: \(error)")
        }
    }

    /// The StoreKit 2 error for why the JWS check failed.
    static func error(for reason: JWSInvalidReason) -> VerificationError {
        switch reason {
        case .malformed, .unreadablePayload: .invalidEncoding(reason.description)
        case .signatureMismatch, .unsupportedAlgorithm: .invalidSignature(reason.description)
        case .missingCertificateChain, .unreadableCertificate, .certificateExpired, .certificateNotYetValid,
            .untrustedChain,
            .invalidCertificate, .certificateNotAuthorized:
            .invalidCertificateChain(reason.description)
        }
    }
}
