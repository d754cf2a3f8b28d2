import Crypto
import Foundation
import Synchronization

/// What every JWS one signer makes begins with, made on its first signature and kept: the
/// protected header (the chain in `x5c`) as JSON in base64url and the dot after it, with the
/// SHA-256 state after those bytes. A signed transaction's signing input is about 4 KB, 3.6 KB
/// of it this header (three certificates, base64 twice over); kept, a signature encodes and
/// hashes only its payload.
final class JWSHeaderPrefix: Sendable {
    /// The header's text and the digest state after it.
    struct Made: Sendable {
        /// The base64url of the header's JSON, and the dot.
        let text: String
        /// SHA-256 after `text`'s bytes.
        let digest: SHA256Prefix
    }

    private let chain: [X509Certificate]
    private let made = Mutex<Made?>(nil)

    /// The prefix of JWS signed under `chain` (leaf first), made on first use.
    init(chain: [X509Certificate]) {
        self.chain = chain
    }

    /// The prefix, made now when it is the first use.
    /// - Throws: an encoding error, or `CryptoError` when OpenSSL cannot hash.
    func value() throws -> Made {
        if let kept = made.withLock({ $0 }) { return kept }
        // Made outside the lock; two threads making it at once make the same bytes.
        let header = JWSHeader(x5c: chain.map { Data($0.derRepresentation).base64EncodedString() })
        let text = Base64URL.encode(try JWSCoding.encode(header)) + "."
        let value = Made(text: text, digest: try SHA256Prefix(Array(text.utf8)))
        made.withLock { $0 = value }
        return value
    }
}
