/// The SHA-256 state after a fixed prefix, for the digests of many messages that begin with it
/// (every JWS a signer makes begins with the same header): the prefix is hashed once, and each
/// message's digest goes on from a copy of that state (`Digest.copy`, `EVP_MD_CTX_copy_ex`), so
/// only the bytes after the prefix are hashed again.
///
/// Immutable once made: a digest only reads the kept state, so one may be shared between threads.
public final class SHA256Prefix: @unchecked Sendable {
    /// SHA-256 after the prefix's bytes (the bytes themselves are the caller's to keep).
    private let state: Digest

    /// Hashes `prefix` once.
    /// - Throws: `CryptoError` if OpenSSL cannot set up or feed the digest.
    public init(_ prefix: [UInt8]) throws {
        var state = try Digest(.sha256)
        try prefix.withUnsafeBytes { try state.update($0) }
        self.state = state
    }

    /// The SHA-256 of the prefix followed by `rest`.
    /// - Throws: `CryptoError` if OpenSSL cannot copy, feed or finish the digest.
    public func digest(continuingWith rest: [UInt8]) throws -> [UInt8] {
        var digest = try state.copy()
        try rest.withUnsafeBytes { try digest.update($0) }
        return try digest.finalize()
    }
}
