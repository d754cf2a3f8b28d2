import COpenSSL

/// An HMAC key with its OpenSSL `EVP_MAC` context kept between messages, so the key's inner
/// and outer pads are computed once. For many MACs under one key; `HMAC.authenticate` is the
/// one-shot form.
///
/// Not thread-safe (its context is reused): keep one per thread or behind a lock.
public final class HMACKey {
    private let context: OpaquePointer
    /// The digest algorithm.
    public let algorithm: Digest.Algorithm

    /// Creates a key.
    /// - Throws: `CryptoError` if OpenSSL cannot set it up.
    public init(_ algorithm: Digest.Algorithm, key: SecureBytes) throws {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { throw CryptoError("EVP_MAC_fetch HMAC") }
        defer { EVP_MAC_free(mac) }
        guard let context = EVP_MAC_CTX_new(mac) else { throw CryptoError("EVP_MAC_CTX_new") }
        // OSSL_PARAM keeps the pointers: both strings must outlive EVP_MAC_init.
        guard let paramName = CRYPTO_strdup("digest", #fileID, #line),
            let digestName = CRYPTO_strdup(algorithm.rawValue, #fileID, #line)
        else {
            EVP_MAC_CTX_free(context)
            throw CryptoError("HMAC", reason: "out of memory")
        }
        defer {
            CRYPTO_free(paramName, #fileID, #line)
            CRYPTO_free(digestName, #fileID, #line)
        }
        var params = [OSSL_PARAM_construct_utf8_string(paramName, digestName, 0), OSSL_PARAM_construct_end()]
        let dummy: [UInt8] = [0]
        let ok = key.withUnsafeBytes { keyBytes in
            dummy.withUnsafeBufferPointer { fallback in
                params.withUnsafeMutableBufferPointer {
                    EVP_MAC_init(
                        context, keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? fallback.baseAddress,
                        keyBytes.count, $0.baseAddress)
                }
            }
        }
        guard ok == 1 else {
            EVP_MAC_CTX_free(context)
            throw CryptoError("EVP_MAC_init")
        }
        self.context = context
        self.algorithm = algorithm
    }

    deinit { EVP_MAC_CTX_free(context) }

    /// Returns the MAC of `message`.
    /// - Throws: `CryptoError` if OpenSSL fails.
    public func authenticate(_ message: UnsafeRawBufferPointer) throws -> [UInt8] {
        var length = 0
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        try out.withUnsafeMutableBytes { length = try authenticate(message, into: $0) }
        out.removeLast(out.count - length)
        return out
    }

    /// Writes the MAC of `message` to the start of `mac`, with nothing allocated (for one MAC a
    /// record over many records).
    /// - Returns: the MAC's length in bytes.
    /// - Throws: `CryptoError` if OpenSSL fails or `mac` is shorter than the MAC.
    public func authenticate(_ message: UnsafeRawBufferPointer, into mac: UnsafeMutableRawBufferPointer) throws -> Int {
        // A nil key restarts the MAC with the key already loaded.
        guard EVP_MAC_init(context, nil, 0, nil) == 1 else { throw CryptoError("EVP_MAC_init") }
        if message.count > 0 {
            guard EVP_MAC_update(context, message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count) == 1
            else {
                throw CryptoError("EVP_MAC_update")
            }
        }
        var length = 0
        guard EVP_MAC_final(context, mac.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, mac.count) == 1
        else {
            throw CryptoError("EVP_MAC_final")
        }
        return length
    }

    /// Returns the MAC of `message`.
    public func authenticate(_ message: [UInt8]) throws -> [UInt8] {
        try message.withUnsafeBytes { try authenticate($0) }
    }
}
