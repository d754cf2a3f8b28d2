import COpenSSL

/// Authenticated encryption with associated data (AES-256-GCM, ChaCha20-Poly1305) through
/// OpenSSL's EVP interface.
///
/// `open` verifies the tag before it returns a single byte of plaintext: decryption goes into
/// a private buffer that is wiped and dropped when `EVP_DecryptFinal_ex` rejects the tag.
public enum AEAD {
    /// An AEAD algorithm. Raw values are stored in files; never renumber.
    public enum Algorithm: UInt8, Sendable, CaseIterable {
        /// AES-256 in Galois/Counter Mode (NIST SP 800-38D).
        case aes256GCM = 1
        /// ChaCha20-Poly1305 (RFC 8439).
        case chacha20Poly1305 = 2

        fileprivate var cipher: OpaquePointer? {
            switch self {
            case .aes256GCM: EVP_aes_256_gcm()
            case .chacha20Poly1305: EVP_chacha20_poly1305()
            }
        }

        /// The OpenSSL name, as `openssl speed -evp` spells it.
        public var openSSLName: String {
            switch self {
            case .aes256GCM: "aes-256-gcm"
            case .chacha20Poly1305: "chacha20-poly1305"
            }
        }
    }

    /// Key length in bytes (both algorithms).
    public static let keyByteCount = 32
    /// Nonce length in bytes (both algorithms).
    public static let nonceByteCount = 12
    /// Tag length in bytes (both algorithms).
    public static let tagByteCount = 16

    /// Encrypts and authenticates `plaintext`, authenticating `associatedData` too.
    /// - Parameters:
    ///   - algorithm: the AEAD to use.
    ///   - key: a 32-byte key.
    ///   - nonce: 12 bytes, never repeated under the same key.
    ///   - plaintext: the bytes to encrypt.
    ///   - associatedData: bytes authenticated but not encrypted.
    /// - Returns: the ciphertext followed by the 16-byte tag.
    /// - Throws: `CryptoError` on a wrong key or nonce length, or an OpenSSL failure.
    public static func seal(
        _ algorithm: Algorithm, key: SecureBytes, nonce: [UInt8],
        plaintext: UnsafeRawBufferPointer, associatedData: [UInt8]
    ) throws -> [UInt8] {
        try checkSizes(key: key, nonce: nonce, length: plaintext.count, operation: "AEAD seal")
        let context = try Context(algorithm, key: key, nonce: nonce, encrypt: true)
        try context.addAssociatedData(associatedData, encrypt: true)
        var out = [UInt8](repeating: 0, count: plaintext.count + tagByteCount)
        try out.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { throw CryptoError("AEAD seal", reason: "no buffer") }
            var written: Int32 = 0
            if plaintext.count > 0 {
                guard EVP_EncryptUpdate(
                    context.pointer, base, &written,
                    plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(plaintext.count)) == 1
                else { throw CryptoError("EVP_EncryptUpdate") }
            }
            var final: Int32 = 0
            guard EVP_EncryptFinal_ex(context.pointer, base + Int(written), &final) == 1 else {
                throw CryptoError("EVP_EncryptFinal_ex")
            }
            guard EVP_CIPHER_CTX_ctrl(
                context.pointer, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), base + plaintext.count) == 1
            else { throw CryptoError("EVP_CTRL_AEAD_GET_TAG") }
        }
        return out
    }

    /// Encrypts and authenticates `plaintext`; see `seal(_:key:nonce:plaintext:associatedData:)`.
    public static func seal(
        _ algorithm: Algorithm, key: SecureBytes, nonce: [UInt8], plaintext: [UInt8], associatedData: [UInt8]
    ) throws -> [UInt8] {
        try plaintext.withUnsafeBytes {
            try seal(algorithm, key: key, nonce: nonce, plaintext: $0, associatedData: associatedData)
        }
    }

    /// Verifies and decrypts `sealed` (ciphertext followed by tag).
    /// - Returns: the plaintext, or `nil` when the tag does not verify (wrong key, altered
    ///   ciphertext, nonce or associated data). No plaintext is released in that case.
    /// - Throws: `CryptoError` on a wrong key or nonce length, or an OpenSSL failure.
    public static func open(
        _ algorithm: Algorithm, key: SecureBytes, nonce: [UInt8],
        sealed: UnsafeRawBufferPointer, associatedData: [UInt8]
    ) throws -> [UInt8]? {
        guard sealed.count >= tagByteCount else { return nil }
        let length = sealed.count - tagByteCount
        try checkSizes(key: key, nonce: nonce, length: length, operation: "AEAD open")
        let context = try Context(algorithm, key: key, nonce: nonce, encrypt: false)
        try context.addAssociatedData(associatedData, encrypt: false)
        var out = [UInt8](repeating: 0, count: length)
        var tag = Array(sealed[length...])
        let verified = try out.withUnsafeMutableBufferPointer { buffer -> Bool in
            var written: Int32 = 0
            if length > 0 {
                guard EVP_DecryptUpdate(
                    context.pointer, buffer.baseAddress, &written,
                    sealed.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(length)) == 1
                else { throw CryptoError("EVP_DecryptUpdate") }
            }
            guard tag.withUnsafeMutableBytes({
                EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount), $0.baseAddress)
            }) == 1 else { throw CryptoError("EVP_CTRL_AEAD_SET_TAG") }
            var final: Int32 = 0
            var scratch = [UInt8](repeating: 0, count: 16)
            let ok = scratch.withUnsafeMutableBufferPointer {
                EVP_DecryptFinal_ex(context.pointer, $0.baseAddress, &final)
            }
            return ok == 1
        }
        guard verified else {
            ERR_clear_error()
            out.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
            return nil
        }
        return out
    }

    /// Verifies and decrypts `sealed`; see `open(_:key:nonce:sealed:associatedData:)`.
    public static func open(
        _ algorithm: Algorithm, key: SecureBytes, nonce: [UInt8], sealed: [UInt8], associatedData: [UInt8]
    ) throws -> [UInt8]? {
        try sealed.withUnsafeBytes {
            try open(algorithm, key: key, nonce: nonce, sealed: $0, associatedData: associatedData)
        }
    }

    private static func checkSizes(key: SecureBytes, nonce: [UInt8], length: Int, operation: String) throws {
        guard key.count == keyByteCount else {
            throw CryptoError(operation, reason: "key must be \(keyByteCount) bytes, got \(key.count)")
        }
        guard nonce.count == nonceByteCount else {
            throw CryptoError(operation, reason: "nonce must be \(nonceByteCount) bytes, got \(nonce.count)")
        }
        guard length <= Int(Int32.max) - 64 else {
            throw CryptoError(operation, reason: "message of \(length) bytes is too long for one call")
        }
    }

    /// One EVP_CIPHER_CTX, set up with key and nonce, freed on release.
    private final class Context {
        let pointer: OpaquePointer

        init(_ algorithm: Algorithm, key: SecureBytes, nonce: [UInt8], encrypt: Bool) throws {
            guard let pointer = EVP_CIPHER_CTX_new() else { throw CryptoError("EVP_CIPHER_CTX_new") }
            self.pointer = pointer
            let initialise = encrypt ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
            guard initialise(pointer, algorithm.cipher, nil, nil, nil) == 1 else {
                throw CryptoError(encrypt ? "EVP_EncryptInit_ex" : "EVP_DecryptInit_ex")
            }
            guard EVP_CIPHER_CTX_ctrl(pointer, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil) == 1 else {
                throw CryptoError("EVP_CTRL_AEAD_SET_IVLEN")
            }
            let ok = key.withUnsafeBytes { keyBytes in
                nonce.withUnsafeBufferPointer { iv in
                    initialise(pointer, nil, nil, keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), iv.baseAddress)
                }
            }
            guard ok == 1 else { throw CryptoError(encrypt ? "EVP_EncryptInit_ex" : "EVP_DecryptInit_ex") }
        }

        func addAssociatedData(_ data: [UInt8], encrypt: Bool) throws {
            guard !data.isEmpty else { return }
            var ignored: Int32 = 0
            let update = encrypt ? EVP_EncryptUpdate : EVP_DecryptUpdate
            let ok = data.withUnsafeBufferPointer {
                update(pointer, nil, &ignored, $0.baseAddress, Int32($0.count))
            }
            guard ok == 1 else { throw CryptoError("AEAD associated data") }
        }

        deinit { EVP_CIPHER_CTX_free(pointer) }
    }
}
