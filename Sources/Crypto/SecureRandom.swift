import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's DRBG.
public enum SecureRandom {
    /// Returns `count` random bytes.
    /// - Throws: `CryptoError` if OpenSSL's generator is not seeded.
    public static func bytes(count: Int) throws -> [UInt8] {
        precondition(count >= 0, "count must not be negative")
        var out = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return out }
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        guard ok == 1 else { throw CryptoError("RAND_bytes") }
        return out
    }
}
