import COpenSSL

/// Keyed message authentication (HMAC, RFC 2104) through OpenSSL.
public enum HMAC {
    /// Returns HMAC-`algorithm` of `message` under `key`.
    /// - Throws: `CryptoError` if OpenSSL fails.
    public static func authenticate(
        _ algorithm: Digest.Algorithm, key: SecureBytes, message: [UInt8]
    ) throws -> [UInt8] {
        guard message.count <= Int(Int32.max) else {
            throw CryptoError("HMAC", reason: "message of \(message.count) bytes is too long")
        }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let dummy: [UInt8] = [0]
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBufferPointer { data in
                dummy.withUnsafeBufferPointer { fallback in
                    COpenSSL.HMAC(
                        algorithm.evpMD, keyBytes.baseAddress ?? UnsafeRawPointer(fallback.baseAddress),
                        Int32(keyBytes.count), data.baseAddress ?? fallback.baseAddress, data.count,
                        &out, &length)
                }
            }
        }
        guard result != nil else { throw CryptoError("HMAC") }
        return Array(out.prefix(Int(length)))
    }

    /// Compares two MACs in constant time.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, x.count) == 0 }
        }
    }
}

extension Digest.Algorithm {
    /// The OpenSSL message digest for this algorithm (for HMAC; Digest keeps its own).
    var evpMD: OpaquePointer? {
        switch self {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
    }
}
