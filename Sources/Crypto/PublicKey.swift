import COpenSSL

/// A public key (EC P-256 or RSA) held by OpenSSL: what checks a signature made by a
/// `PrivateKey` without a certificate, e.g. an App Store Server API JWT signed by a `.p8` key.
/// Immutable, so it may be shared between threads.
public final class PublicKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The public half of `privateKey`.
    /// - Throws: `CryptoError` if OpenSSL cannot copy it out.
    public convenience init(of privateKey: PrivateKey) throws(CryptoError) {
        try self.init(pem: MemoryBIO.writePEM("PEM_write_bio_PUBKEY") { PEM_write_bio_PUBKEY($0, privateKey.pointer) })
    }

    /// Reads a PEM `PUBLIC KEY` (SubjectPublicKeyInfo).
    /// - Throws: `CryptoError` naming what OpenSSL could not read.
    public convenience init(pem: String) throws(CryptoError) {
        self.init(taking: try MemoryBIO.readPEM(pem, "PEM_read_bio_PUBKEY") { PEM_read_bio_PUBKEY($0, nil, nil, nil) })
    }

    /// The key as PEM `PUBLIC KEY` (SubjectPublicKeyInfo).
    /// - Throws: `CryptoError` if OpenSSL cannot write it.
    public func pemRepresentation() throws(CryptoError) -> String {
        try MemoryBIO.writePEM("PEM_write_bio_PUBKEY") { PEM_write_bio_PUBKEY($0, pointer) }
    }

    /// Whether this is an EC key on P-256 (what ES256 needs).
    public var isP256: Bool {
        guard EVP_PKEY_get_base_id(pointer) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else { return false }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256" || group == "secp256r1"
    }

    /// Checks a SHA-256 signature (DER ECDSA, or PKCS#1 v1.5 for RSA) over `message`.
    /// - Returns: whether the signature is good.
    /// - Throws: `CryptoError` only if OpenSSL cannot set up the check.
    public func verifySHA256(signature: [UInt8], message: [UInt8]) throws(CryptoError) -> Bool {
        try Self.verifySHA256(signature: signature, message: message, key: pointer)
    }

    /// `verifySHA256(signature:message:)` with `key`, which may be borrowed (a certificate's).
    static func verifySHA256(signature: [UInt8], message: [UInt8], key: OpaquePointer) throws(CryptoError) -> Bool {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw CryptoError("EVP_DigestVerifyInit")
        }
        let result = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer {
                EVP_DigestVerify(context, sig.baseAddress, sig.count, $0.baseAddress, $0.count)
            }
        }
        ERR_clear_error()
        return result == 1
    }
}
