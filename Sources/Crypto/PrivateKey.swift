import COpenSSL

/// A private key (EC P-256 or RSA) held by OpenSSL. Immutable once made, so it may be shared
/// between threads (OpenSSL 3 allows concurrent use of a key for signing).
public final class PrivateKey: @unchecked Sendable {
    /// The kinds of key this library makes.
    public enum Kind: Sendable, Hashable {
        /// ECDSA on NIST P-256 (secp256r1), used for ES256.
        case p256
        /// RSA with the given modulus size in bits.
        case rsa(bits: Int)
    }

    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    /// Generates a new key with OpenSSL's random generator.
    /// - Throws: `CryptoError` if OpenSSL cannot make the key.
    public static func generate(_ kind: Kind) throws(CryptoError) -> PrivateKey {
        let algorithm: String
        switch kind {
        case .p256: algorithm = "EC"
        case .rsa(let bits):
            guard bits >= 2048 else {
                throw CryptoError("RSA key generation", reason: "RSA keys need at least 2048 bits, asked for \(bits)")
            }
            algorithm = "RSA"
        }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil) else {
            throw CryptoError("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw CryptoError("EVP_PKEY_keygen_init") }
        switch kind {
        case .p256:
            guard EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 else {
                throw CryptoError("EVP_PKEY_CTX_set_group_name")
            }
        case .rsa(let bits):
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(clamping: bits)) == 1 else {
                throw CryptoError("EVP_PKEY_CTX_set_rsa_keygen_bits")
            }
        }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw CryptoError("EVP_PKEY_generate") }
        return PrivateKey(taking: key)
    }

    /// Reads a PEM private key (PKCS#8 or traditional).
    /// - Throws: `CryptoError` naming what OpenSSL could not read.
    public convenience init(pem: String) throws(CryptoError) {
        if let key = Self.decodedPKCS8(pem) {
            self.init(taking: key)
            return
        }
        self.init(
            taking: try MemoryBIO.readPEM(pem, "PEM_read_bio_PrivateKey") { PEM_read_bio_PrivateKey($0, nil, nil, nil) }
        )
    }

    /// An unencrypted PKCS#8 key (`BEGIN PRIVATE KEY`, what this library writes) of an EC or RSA
    /// algorithm: a P-256 key made from its parameters (`importedP256`), another decoded by its
    /// algorithm's decoder alone; nil for anything else, which the generic reader then reads or
    /// refuses. OpenSSL 3's generic reader gathers every decoder of every provider for each key:
    /// about 4.4 M instructions a P-256 key against 1.2 M, most of a CLI command's chain load.
    private static func decodedPKCS8(_ pem: String) -> OpaquePointer? {
        guard let bio = try? MemoryBIO(Array(pem.utf8)), let block = bio.nextPEMBlock(), block.label == "PRIVATE KEY"
        else { return nil }
        let info = block.der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_PKCS8_PRIV_KEY_INFO(nil, &cursor, buffer.count)
        }
        guard let info else {
            ERR_clear_error()
            return nil
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        guard let keyType = pkcs8KeyType(info) else { return nil }
        if keyType == "EC", let key = importedP256(info) { return key }
        var key: OpaquePointer? = nil
        guard
            let decoder = OSSL_DECODER_CTX_new_for_pkey(
                &key, "DER", "PrivateKeyInfo", keyType, keyPairSelection, nil, nil)
        else {
            ERR_clear_error()
            return nil
        }
        defer { OSSL_DECODER_CTX_free(decoder) }
        let decoded = block.der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            var remaining = buffer.count
            return OSSL_DECODER_from_data(decoder, &cursor, &remaining) == 1
        }
        guard decoded, let key else {
            ERR_clear_error()
            return nil
        }
        return key
    }

    /// The key type OpenSSL's key managers know a PKCS#8 key's algorithm by, from its
    /// `AlgorithmIdentifier`: "EC" or "RSA"; nil for other algorithms.
    private static func pkcs8KeyType(_ info: OpaquePointer) -> String? {
        var algorithm: OpaquePointer? = nil
        guard PKCS8_pkey_get0(&algorithm, nil, nil, nil, info) == 1 else { return nil }
        switch OBJ_obj2nid(algorithm) {
        case NID_X9_62_id_ecPublicKey: return "EC"
        case NID_rsaEncryption: return "RSA"
        default: return nil
        }
    }

    /// The key as unencrypted PKCS#8 PEM (keep the file private: mode 0600).
    /// - Throws: `CryptoError` if OpenSSL cannot write it.
    public func pemRepresentation() throws(CryptoError) -> String {
        try MemoryBIO.writePEM("PEM_write_bio_PrivateKey") {
            PEM_write_bio_PrivateKey($0, pointer, nil, nil, 0, nil, nil)
        }
    }

    /// Whether this is an EC key (ES256) rather than RSA.
    public var isEC: Bool { EVP_PKEY_get_base_id(pointer) == EVP_PKEY_EC }

    /// Signs `message` with SHA-256: ECDSA (DER signature) for EC keys, PKCS#1 v1.5 for RSA.
    /// - Throws: `CryptoError` if OpenSSL cannot sign.
    public func signSHA256(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            throw CryptoError("EVP_DigestSignInit")
        }
        // One call that finalises the context itself: without the flag OpenSSL 3 signs a copy of
        // the whole key context (so that more data could follow), and a first call to learn the
        // length costs another pass.
        EVP_MD_CTX_set_flags(context, EVP_MD_CTX_FLAG_FINALISE)
        return try signature(of: message, "EVP_DigestSign") { EVP_DigestSign(context, $0, &$1, $2, $3) }
    }

    /// Signs a SHA-256 digest made beforehand (a message hashed in parts, as `SHA256Prefix`
    /// does): the signature `signSHA256` makes of the message itself, ECDSA (DER) for EC keys,
    /// PKCS#1 v1.5 for RSA.
    /// - Throws: `CryptoError` when `digest` is not 32 bytes or OpenSSL cannot sign.
    public func signSHA256(digest: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard digest.count == Digest.Algorithm.sha256.byteCount else {
            throw CryptoError("signing a SHA-256 digest", reason: "the digest is \(digest.count) bytes, not 32")
        }
        guard let context = EVP_PKEY_CTX_new(pointer, nil) else { throw CryptoError("EVP_PKEY_CTX_new") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_sign_init(context) == 1 else { throw CryptoError("EVP_PKEY_sign_init") }
        guard EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1 else {
            throw CryptoError("EVP_PKEY_CTX_set_signature_md")
        }
        return try signature(of: digest, "EVP_PKEY_sign") { EVP_PKEY_sign(context, $0, &$1, $2, $3) }
    }

    /// The signature `sign` writes of `input` (the output buffer, its length in and out, the
    /// input and its count), sized by the key: its size is its longest signature.
    private func signature(
        of input: [UInt8], _ function: String,
        _ sign: (UnsafeMutablePointer<UInt8>?, inout Int, UnsafePointer<UInt8>?, Int) -> Int32
    ) throws(CryptoError) -> [UInt8] {
        var length = Int(EVP_PKEY_get_size(pointer))
        guard length > 0 else { throw CryptoError("EVP_PKEY_get_size") }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = signature.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { sign(out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard signed == 1 else { throw CryptoError(function) }
        return Array(signature.prefix(length))
    }
}
