import COpenSSL

/// ES256 (ECDSA P-256 with SHA-256) as JWS uses it: signatures are raw `r || s`, 32 bytes each,
/// not the DER `ECDSA-Sig-Value` OpenSSL produces; this converts between the two.
public enum ECDSA {
    /// The length of one coordinate of a P-256 signature.
    public static let coordinateLength = 32

    /// Signs `message` with ES256.
    /// - Returns: the 64-byte raw signature `r || s`.
    /// - Throws: `CryptoError` if `key` is not an EC key or OpenSSL cannot sign.
    public static func signES256(_ message: [UInt8], key: PrivateKey) throws(CryptoError) -> [UInt8] {
        guard key.isEC else { throw CryptoError("ES256 signing", reason: "the key is not an EC P-256 key") }
        return try rawSignature(fromDER: key.signSHA256(message))
    }

    /// Signs a SHA-256 digest made beforehand with ES256 (the signature of the message it is
    /// the digest of, as `signES256(_:key:)` makes it).
    /// - Returns: the 64-byte raw signature `r || s`.
    /// - Throws: `CryptoError` if `key` is not an EC key, the digest is not 32 bytes or OpenSSL cannot sign.
    public static func signES256(digest: [UInt8], key: PrivateKey) throws(CryptoError) -> [UInt8] {
        guard key.isEC else { throw CryptoError("ES256 signing", reason: "the key is not an EC P-256 key") }
        return try rawSignature(fromDER: key.signSHA256(digest: digest))
    }

    /// Checks an ES256 signature (raw `r || s`) over `message` with `certificate`'s public key.
    /// - Returns: whether the signature is good; a signature of the wrong length is not.
    /// - Throws: `CryptoError` only if OpenSSL cannot set up the check.
    public static func verifyES256(
        signature: [UInt8], message: [UInt8], certificate: X509Certificate
    ) throws(CryptoError) -> Bool {
        try verifyES256(signature, usableKey: certificate.hasECKey) { der throws(CryptoError) in
            try certificate.verifySHA256(signature: der, message: message)
        }
    }

    /// Checks an ES256 signature (raw `r || s`) over `message` with a bare public key, as a
    /// JWT's signature is checked against the key its `kid` names.
    /// - Returns: whether the signature is good; a non-P-256 key or a signature of the wrong
    ///   length is not.
    /// - Throws: `CryptoError` only if OpenSSL cannot set up the check.
    public static func verifyES256(
        signature: [UInt8], message: [UInt8], publicKey: PublicKey
    ) throws(CryptoError) -> Bool {
        try verifyES256(signature, usableKey: publicKey.isP256) { der throws(CryptoError) in
            try publicKey.verifySHA256(signature: der, message: message)
        }
    }

    /// A raw signature of the right length, as DER, checked by `verify`; false when the key
    /// is not one ES256 uses or the signature is not one.
    private static func verifyES256(
        _ signature: [UInt8], usableKey: Bool, _ verify: ([UInt8]) throws(CryptoError) -> Bool
    ) throws(CryptoError) -> Bool {
        guard usableKey, signature.count == 2 * coordinateLength else { return false }
        guard let der = try? derSignature(fromRaw: signature) else { return false }
        return try verify(der)
    }

    /// Converts a DER `ECDSA-Sig-Value` into raw `r || s`.
    /// - Throws: `CryptoError` when the DER is not an ECDSA signature or a coordinate is too long.
    public static func rawSignature(fromDER der: [UInt8]) throws(CryptoError) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature = parsed else { throw CryptoError("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(signature) }
        var out = [UInt8](repeating: 0, count: 2 * coordinateLength)
        let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(ECDSA_SIG_get0_r(signature), base, Int32(coordinateLength)) == coordinateLength
                && BN_bn2binpad(ECDSA_SIG_get0_s(signature), base + coordinateLength, Int32(coordinateLength))
                    == coordinateLength
        }
        guard ok else { throw CryptoError("BN_bn2binpad", reason: "signature coordinate longer than 32 bytes") }
        return out
    }

    /// Converts raw `r || s` (64 bytes) into a DER `ECDSA-Sig-Value`.
    /// - Throws: `CryptoError` when the input is not 64 bytes.
    public static func derSignature(fromRaw raw: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard raw.count == 2 * coordinateLength else {
            throw CryptoError("ES256 signature", reason: "raw signature is \(raw.count) bytes, expected 64")
        }
        guard let signature = ECDSA_SIG_new() else { throw CryptoError("ECDSA_SIG_new") }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = raw.withUnsafeBufferPointer { buffer in
            (
                BN_bin2bn(buffer.baseAddress, Int32(coordinateLength), nil),
                BN_bin2bn(buffer.baseAddress.map { $0 + coordinateLength }, Int32(coordinateLength), nil)
            )
        }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw CryptoError("ECDSA_SIG_set0")
        }
        return try DER.encode("i2d_ECDSA_SIG") { i2d_ECDSA_SIG(signature, $0) }
    }
}
