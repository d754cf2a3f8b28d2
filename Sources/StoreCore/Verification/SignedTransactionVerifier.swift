import Foundation
package import Receipts

/// Verifies a purchase by its StoreKit 2 signed transaction (JWS): the `x5c` chain to the
/// trusted root, `alg`, the bundle ID, the environment, and that it is this transaction.
public struct SignedTransactionVerifier: PurchaseVerifier {
    /// What the signed transaction must match. Immutable.
    public struct Configuration: Sendable, Hashable {
        /// DER or PEM encodings of the trusted roots.
        public var trustedRoots: [Data]
        /// Accept Xcode's single self-signed certificate.
        public var trustXcodeSelfSigned: Bool
        /// The app's bundle identifier.
        public var bundleID: String
        /// The environments accepted (raw values: "Production", "Sandbox", "Xcode", "LocalTesting").
        public var environments: Set<String>
        /// When to check the certificates; nil checks at each payload's `signedDate`.
        public var verificationDate: Date?

        /// Creates a configuration.
        public init(
            trustedRoots: [Data], trustXcodeSelfSigned: Bool = false, bundleID: String,
            environments: Set<AppStoreEnvironment>, verificationDate: Date? = nil
        ) {
            self.trustedRoots = trustedRoots
            self.trustXcodeSelfSigned = trustXcodeSelfSigned
            self.bundleID = bundleID
            self.environments = Set(environments.map(\.rawValue))
            self.verificationDate = verificationDate
        }
    }

    /// Why a signed transaction does not check out.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The transaction carries no signed transaction.
        case notSigned(transactionID: String)
        /// The JWS itself is not acceptable.
        case jws(JWSInvalidReason)
        /// It was issued for another app.
        case bundleIDMismatch(expected: String, found: String?)
        /// It comes from an environment not accepted.
        case environmentNotAccepted(found: String?, accepted: [String])
        /// It describes another transaction or product.
        case transactionMismatch(field: String, expected: String, found: String?)

        public var description: String {
            switch self {
            case .notSigned(let id): "transaction \(id) carries no signed transaction"
            case .jws(let reason): reason.description
            case .bundleIDMismatch(let expected, let found):
                "the signed transaction is for bundle ID \"\(found ?? "none")\", not \"\(expected)\""
            case .environmentNotAccepted(let found, let accepted):
                "the signed transaction comes from environment \"\(found ?? "none")\"; accepted: \(accepted.joined(separator: ", "))"
            case .transactionMismatch(let field, let expected, let found):
                "the signed transaction's \(field) is \"\(found ?? "none")\", not \"\(expected)\""
            }
        }
    }

    private let configuration: Configuration
    private let verifier: JWSVerifier

    /// Creates a verifier.
    /// - Throws: `ReceiptValidatorError` when no root is given (and Xcode's case is not trusted) or a root is unreadable.
    public init(configuration: Configuration) throws(ReceiptValidatorError) {
        self.configuration = configuration
        self.verifier = try JWSVerifier(
            trustedRoots: configuration.trustedRoots.map { Array($0) },
            trustXcodeSelfSigned: configuration.trustXcodeSelfSigned)
    }

    /// Checks a JWS signed transaction, optionally against the transaction it should describe.
    package func check(
        _ jws: String, transactionID: String? = nil, productID: String? = nil
    )
        -> Result<JWSTransactionDecodedPayload, Failure>
    {
        let payload: JWSTransactionDecodedPayload
        switch verifier.verifyTransaction(jws, at: configuration.verificationDate) {
        case .invalid(let reason): return .failure(.jws(reason))
        case .valid(let decoded): payload = decoded
        }
        guard payload.bundleId == configuration.bundleID else {
            return .failure(.bundleIDMismatch(expected: configuration.bundleID, found: payload.bundleId))
        }
        guard let environment = payload.rawEnvironment, configuration.environments.contains(environment) else {
            return .failure(
                .environmentNotAccepted(found: payload.rawEnvironment, accepted: configuration.environments.sorted()))
        }
        if let transactionID, payload.transactionId != transactionID {
            return .failure(
                .transactionMismatch(field: "transactionId", expected: transactionID, found: payload.transactionId))
        }
        if let productID, payload.productId != productID {
            return .failure(.transactionMismatch(field: "productId", expected: productID, found: payload.productId))
        }
        return .success(payload)
    }

    /// Verifies the transaction's own signed transaction; the receipt is not used.
    public func verify(_ transaction: Transaction, receipt: Data?) async -> VerificationOutcome {
        guard let jws = transaction.signedTransaction else {
            return .invalid(reason: Failure.notSigned(transactionID: transaction.transactionID).description)
        }
        switch check(jws, transactionID: transaction.transactionID, productID: transaction.productID) {
        case .success: return .valid
        case .failure(let failure): return .invalid(reason: failure.description)
        }
    }
}

extension SignedTransactionVerifier.Failure: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
