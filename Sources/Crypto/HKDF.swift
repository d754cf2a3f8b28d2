import COpenSSL

/// HMAC-based key derivation (RFC 5869) through OpenSSL's `EVP_KDF` "HKDF".
public enum HKDF {
    /// Derives `count` bytes from `key` with `salt` and `info` (extract, then expand).
    /// - Throws: `CryptoError` if OpenSSL fails or `count` exceeds 255 digest lengths.
    public static func derive(
        _ algorithm: Digest.Algorithm = .sha256, key: SecureBytes, salt: [UInt8], info: [UInt8], count: Int
    ) throws -> SecureBytes {
        guard count > 0, count <= 255 * algorithm.byteCount else {
            throw CryptoError("HKDF", reason: "output length \(count) out of range")
        }
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { throw CryptoError("EVP_KDF_fetch HKDF") }
        defer { EVP_KDF_free(kdf) }
        guard let context = EVP_KDF_CTX_new(kdf) else { throw CryptoError("EVP_KDF_CTX_new") }
        defer { EVP_KDF_CTX_free(context) }

        // OSSL_PARAM keeps the pointers it is given, so every string and buffer below
        // must outlive EVP_KDF_derive: they are all allocated here and freed on return.
        var owned: [UnsafeMutableRawPointer] = []
        defer { for pointer in owned { CRYPTO_free(pointer, #fileID, #line) } }
        func cString(_ s: String) throws -> UnsafeMutablePointer<CChar> {
            guard let p = CRYPTO_strdup(s, #fileID, #line) else { throw CryptoError("HKDF", reason: "out of memory") }
            owned.append(UnsafeMutableRawPointer(p))
            return p
        }
        func buffer(_ bytes: UnsafeRawBufferPointer) throws -> UnsafeMutableRawPointer {
            guard let p = CRYPTO_malloc(max(bytes.count, 1), #fileID, #line) else {
                throw CryptoError("HKDF", reason: "out of memory")
            }
            if let base = bytes.baseAddress, bytes.count > 0 { p.copyMemory(from: base, byteCount: bytes.count) }
            owned.append(p)
            return p
        }
        let keyCopy = try key.withUnsafeBytes { try buffer($0) }
        defer { OPENSSL_cleanse(keyCopy, key.count) }

        var params: [OSSL_PARAM] = [
            OSSL_PARAM_construct_utf8_string(try cString("digest"), try cString(algorithm.rawValue), 0),
            OSSL_PARAM_construct_octet_string(try cString("key"), keyCopy, key.count),
        ]
        if !salt.isEmpty {
            let p = try salt.withUnsafeBytes { try buffer($0) }
            params.append(OSSL_PARAM_construct_octet_string(try cString("salt"), p, salt.count))
        }
        if !info.isEmpty {
            let p = try info.withUnsafeBytes { try buffer($0) }
            params.append(OSSL_PARAM_construct_octet_string(try cString("info"), p, info.count))
        }
        params.append(OSSL_PARAM_construct_end())

        var out = [UInt8](repeating: 0, count: count)
        defer { out.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        let ok = params.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { EVP_KDF_derive(context, $0.baseAddress, count, p.baseAddress) }
        }
        guard ok == 1 else { throw CryptoError("EVP_KDF_derive HKDF") }
        return SecureBytes(out)
    }
}
