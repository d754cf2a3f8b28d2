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
        let sealer = try AEADKey(algorithm, key: key)
        return try associatedData.withUnsafeBytes {
            try sealer.seal(nonce: nonce, plaintext: plaintext, associatedData: $0)
        }
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
        let opener = try AEADKey(algorithm, key: key)
        return try associatedData.withUnsafeBytes { try opener.open(nonce: nonce, sealed: sealed, associatedData: $0) }
    }

    /// Verifies and decrypts `sealed`; see `open(_:key:nonce:sealed:associatedData:)`.
    public static func open(
        _ algorithm: Algorithm, key: SecureBytes, nonce: [UInt8], sealed: [UInt8], associatedData: [UInt8]
    ) throws -> [UInt8]? {
        try sealed.withUnsafeBytes {
            try open(algorithm, key: key, nonce: nonce, sealed: $0, associatedData: associatedData)
        }
    }

    /// The algorithm's cipher, fetched from the default provider once per process (an
    /// implicit fetch by name on every message would cost more than sealing a small record).
    static func cipher(_ algorithm: Algorithm) -> OpaquePointer? {
        switch algorithm {
        case .aes256GCM: FetchedCiphers.shared.aes256GCM
        case .chacha20Poly1305: FetchedCiphers.shared.chacha20Poly1305
        }
    }
}

/// Ciphers fetched once; OpenSSL's fetched algorithm objects are immutable and thread-safe.
private final class FetchedCiphers: @unchecked Sendable {
    static let shared = FetchedCiphers()
    let aes256GCM: OpaquePointer?
    let chacha20Poly1305: OpaquePointer?

    private init() {
        aes256GCM = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil) ?? EVP_aes_256_gcm()
        chacha20Poly1305 = EVP_CIPHER_fetch(nil, "ChaCha20-Poly1305", nil) ?? EVP_chacha20_poly1305()
    }
}
