import Crypto
import Foundation

/// Signs App Store JWS (compact serialization, ES256, the chain in `x5c`): signed transactions
/// signed renewal info and
/// signed app transactions, as the App Store and Xcode issue them.
public struct JWSSigner: Sendable {
    private let chain: [X509Certificate]
    private let key: PrivateKey

    /// Creates a signer from a chain (leaf first) and the leaf's EC P-256 key.
    /// - Throws: `CryptoError` when the chain is empty or the key is not EC.
    public init(chain: [X509Certificate], key: PrivateKey) throws(CryptoError) {
        guard !chain.isEmpty else { throw CryptoError("JWS signer", reason: "the certificate chain is empty") }
        guard key.isEC else {
            throw CryptoError("JWS signer", reason: "ES256 needs an EC P-256 key; the chain's key is RSA")
        }
        self.chain = chain
        self.key = key
    }

    /// Creates a signer using `authority`'s signing certificate, intermediate and root.
    /// - Throws: `CryptoError` when the authority's key is not EC.
    public init(authority: CertificateAuthority) throws(CryptoError) {
        try self.init(chain: authority.chain, key: authority.signingKey)
    }

    /// Signs a signed transaction's payload.
    /// - Throws: `CryptoError` if OpenSSL cannot sign, or an encoding error.
    public func sign(_ payload: JWSTransactionDecodedPayload) throws -> String { try signPayload(payload) }

    /// Signs a subscription's renewal info.
    /// - Throws: `CryptoError` if OpenSSL cannot sign, or an encoding error.
    public func sign(_ payload: JWSRenewalInfoDecodedPayload) throws -> String { try signPayload(payload) }

    /// Signs an app transaction.
    /// - Throws: `CryptoError` if OpenSSL cannot sign, or an encoding error.
    public func sign(_ payload: JWSAppTransactionDecodedPayload) throws -> String { try signPayload(payload) }

    /// Signs any payload with App Store JWS conventions (dates as milliseconds).
    /// - Throws: `CryptoError` if OpenSSL cannot sign, or an encoding error.
    public func signPayload<Payload: Encodable>(_ payload: Payload) throws -> String {
        let encoder = JWSCoding.encoder()
        let header = JWSHeader(x5c: chain.map { Data($0.derRepresentation).base64EncodedString() })
        let signingInput =
            Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(payload))
        let signature = try ECDSA.signES256(Array(signingInput.utf8), key: key)
        return signingInput + "." + Base64URL.encode(signature)
    }
}
