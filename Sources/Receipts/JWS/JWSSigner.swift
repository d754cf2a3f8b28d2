import Crypto
import Foundation

/// Signs App Store JWS (compact serialization, ES256, the chain in `x5c`): signed transactions
/// signed renewal info and
/// signed app transactions, as the App Store and Xcode issue them.
public struct JWSSigner: Sendable {
    private let key: PrivateKey
    /// The header every JWS of this signer begins with, encoded and hashed once.
    private let header: JWSHeaderPrefix

    /// Creates a signer from a chain (leaf first) and the leaf's EC P-256 key.
    /// - Throws: `CryptoError` when the chain is empty or the key is not EC.
    public init(chain: [X509Certificate], key: PrivateKey) throws(CryptoError) {
        guard !chain.isEmpty else { throw CryptoError("JWS signer", reason: "the certificate chain is empty") }
        guard key.isEC else {
            throw CryptoError("JWS signer", reason: "ES256 needs an EC P-256 key; the chain's key is RSA")
        }
        self.key = key
        self.header = JWSHeaderPrefix(chain: chain)
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
    ///
    /// The header is encoded and hashed on the signer's first signature only: keep a signer to
    /// sign many.
    /// - Throws: `CryptoError` if OpenSSL cannot sign, or an encoding error.
    public func signPayload<Payload: Encodable>(_ payload: Payload) throws -> String {
        let header = try header.value()
        let encodedPayload = Base64URL.encode(try JWSCoding.encode(payload))
        let digest = try header.digest.digest(continuingWith: Array(encodedPayload.utf8))
        let signature = try ECDSA.signES256(digest: digest, key: key)
        return header.text + encodedPayload + "." + Base64URL.encode(signature)
    }
}
