import COpenSSL

/// An AEAD key with its OpenSSL contexts kept between messages, so the key schedule is
/// computed once and each message only sets a new nonce. For sealing or opening many
/// records under one key; `AEAD.seal` / `AEAD.open` are the one-shot forms.
///
/// Not thread-safe (its contexts are reused): keep one per thread or behind a lock.
public final class AEADKey {
    /// The algorithm.
    public let algorithm: AEAD.Algorithm
    private let key: SecureBytes
    private var encryptContext: OpaquePointer?
    private var decryptContext: OpaquePointer?

    /// Creates a key.
    /// - Throws: `CryptoError` if `key` is not 32 bytes.
    public init(_ algorithm: AEAD.Algorithm, key: SecureBytes) throws {
        guard key.count == AEAD.keyByteCount else {
            throw CryptoError("AEAD key", reason: "key must be \(AEAD.keyByteCount) bytes, got \(key.count)")
        }
        self.algorithm = algorithm
        self.key = key
    }

    deinit {
        EVP_CIPHER_CTX_free(encryptContext)
        EVP_CIPHER_CTX_free(decryptContext)
    }

    /// Encrypts and authenticates `plaintext` and `associatedData` under `nonce`.
    /// - Returns: ciphertext followed by the 16-byte tag.
    /// - Throws: `CryptoError` on a wrong nonce length or an OpenSSL failure.
    public func seal(
        nonce: [UInt8], plaintext: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer
    ) throws -> [UInt8] {
        let context = try prepare(encrypt: true, nonce: nonce, length: plaintext.count)
        try addAssociatedData(context, associatedData, encrypt: true)
        let total = plaintext.count + AEAD.tagByteCount
        var failure: CryptoError?
        let out = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            initialized = total
            guard let base = buffer.baseAddress else { return }
            var written: Int32 = 0
            if plaintext.count > 0 {
                guard
                    EVP_EncryptUpdate(
                        context, base, &written, plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        Int32(plaintext.count)) == 1
                else {
                    failure = CryptoError("EVP_EncryptUpdate")
                    return
                }
            }
            var final: Int32 = 0
            guard EVP_EncryptFinal_ex(context, base + Int(written), &final) == 1 else {
                failure = CryptoError("EVP_EncryptFinal_ex")
                return
            }
            guard
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(AEAD.tagByteCount), base + plaintext.count)
                    == 1
            else {
                failure = CryptoError("EVP_CTRL_AEAD_GET_TAG")
                return
            }
        }
        if let failure { throw failure }
        return out
    }

    /// Verifies and decrypts `sealed` (ciphertext followed by tag).
    /// - Returns: the plaintext, or `nil` when the tag does not verify; nothing is released then.
    /// - Throws: `CryptoError` on a wrong nonce length or an OpenSSL failure.
    public func open(
        nonce: [UInt8], sealed: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer
    ) throws -> [UInt8]? {
        guard sealed.count >= AEAD.tagByteCount else { return nil }
        let length = sealed.count - AEAD.tagByteCount
        var failure: (any Error)?
        var verified = false
        let out = [UInt8](unsafeUninitializedCapacity: max(length, 1)) { buffer, initialized in
            initialized = length
            do {
                verified = try nonce.withUnsafeBytes {
                    try open(
                        nonce: $0, sealed: sealed, associatedData: associatedData,
                        into: UnsafeMutableRawBufferPointer(buffer))
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return verified ? out : nil
    }

    /// Verifies and decrypts `sealed` (ciphertext followed by tag) into `plaintext`, which must
    /// hold at least `sealed.count - AEAD.tagByteCount` bytes: the form for many records read
    /// one after another into one buffer, with nothing allocated a message.
    /// - Returns: whether the tag verified; when it did not (or OpenSSL failed), the bytes
    ///   written to `plaintext` are wiped, so nothing unauthenticated is released.
    /// - Throws: `CryptoError` on a wrong nonce length, a `plaintext` too small, or an OpenSSL failure.
    public func open(
        nonce: UnsafeRawBufferPointer, sealed: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer,
        into plaintext: UnsafeMutableRawBufferPointer
    ) throws -> Bool {
        guard sealed.count >= AEAD.tagByteCount, let sealedBase = sealed.baseAddress else { return false }
        let length = sealed.count - AEAD.tagByteCount
        guard plaintext.count >= length else {
            throw CryptoError(
                "AEAD", reason: "the plaintext buffer holds \(plaintext.count) bytes, the message \(length)")
        }
        let context = try prepare(encrypt: false, nonce: nonce, length: length)
        try addAssociatedData(context, associatedData, encrypt: false)
        let base = plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var written: Int32 = 0
        if length > 0 {
            guard
                EVP_DecryptUpdate(
                    context, base, &written, sealedBase.assumingMemoryBound(to: UInt8.self), Int32(length)) == 1
            else {
                OPENSSL_cleanse(base, length)
                throw CryptoError("EVP_DecryptUpdate")
            }
        }
        // OpenSSL wants a mutable pointer for the expected tag (it only reads it): a copy on the stack.
        let tagSet = withUnsafeTemporaryAllocation(byteCount: AEAD.tagByteCount, alignment: 1) { tag in
            tag.copyMemory(from: UnsafeRawBufferPointer(rebasing: sealed[length...]))
            return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(AEAD.tagByteCount), tag.baseAddress)
        }
        guard tagSet == 1 else {
            OPENSSL_cleanse(base, length)
            throw CryptoError("EVP_CTRL_AEAD_SET_TAG")
        }
        var final: Int32 = 0
        var scratch: UInt8 = 0
        let verified = withUnsafeMutablePointer(to: &scratch) { scratch in
            EVP_DecryptFinal_ex(context, length > 0 ? base! + Int(written) : scratch, &final) == 1
        }
        guard verified else {
            ERR_clear_error()
            OPENSSL_cleanse(base, length)
            return false
        }
        return true
    }

    /// Returns the context for this direction with the key loaded once and `nonce` set now.
    private func prepare(encrypt: Bool, nonce: [UInt8], length: Int) throws -> OpaquePointer {
        try nonce.withUnsafeBytes { try prepare(encrypt: encrypt, nonce: $0, length: length) }
    }

    private func prepare(encrypt: Bool, nonce: UnsafeRawBufferPointer, length: Int) throws -> OpaquePointer {
        guard nonce.count == AEAD.nonceByteCount else {
            throw CryptoError("AEAD", reason: "nonce must be \(AEAD.nonceByteCount) bytes, got \(nonce.count)")
        }
        guard length <= Int(Int32.max) - 64 else {
            throw CryptoError("AEAD", reason: "message of \(length) bytes is too long for one call")
        }
        let initialise = encrypt ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
        let name = encrypt ? "EVP_EncryptInit_ex" : "EVP_DecryptInit_ex"
        let existing = encrypt ? encryptContext : decryptContext
        let context: OpaquePointer
        if let existing {
            context = existing
        } else {
            guard let fresh = EVP_CIPHER_CTX_new() else { throw CryptoError("EVP_CIPHER_CTX_new") }
            guard initialise(fresh, AEAD.cipher(algorithm), nil, nil, nil) == 1,
                EVP_CIPHER_CTX_ctrl(fresh, EVP_CTRL_AEAD_SET_IVLEN, Int32(AEAD.nonceByteCount), nil) == 1,
                key.withUnsafeBytes({
                    initialise(fresh, nil, nil, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), nil)
                }) == 1
            else {
                EVP_CIPHER_CTX_free(fresh)
                throw CryptoError(name)
            }
            if encrypt { encryptContext = fresh } else { decryptContext = fresh }
            context = fresh
        }
        // A nil key keeps the key schedule already loaded; only the nonce changes.
        guard initialise(context, nil, nil, nil, nonce.baseAddress?.assumingMemoryBound(to: UInt8.self)) == 1 else {
            throw CryptoError(name)
        }
        return context
    }

    private func addAssociatedData(_ context: OpaquePointer, _ data: UnsafeRawBufferPointer, encrypt: Bool) throws {
        guard data.count > 0 else { return }
        var ignored: Int32 = 0
        let update = encrypt ? EVP_EncryptUpdate : EVP_DecryptUpdate
        guard
            update(context, nil, &ignored, data.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(data.count))
                == 1
        else {
            throw CryptoError("AEAD associated data")
        }
    }
}
