import COpenSSL

/// EC P-256 keys without OpenSSL's decoders: a PKCS#8 key made from the scalar and the point its
/// `ECPrivateKey` carries (`EVP_PKEY_fromdata`), and a key's `SubjectPublicKeyInfo` laid out from
/// its point. OpenSSL 3.0 gathers every decoder of every provider for each key or certificate it
/// decodes (no cache before 3.2), about 1.2 M instructions a key, while the EC key manager makes
/// one from its parameters for a small part of that
/// (Docs/decisions/0150-the-signer-read-without-openssl-decoders.md).
extension PrivateKey {
    /// The DER a P-256 `SubjectPublicKeyInfo` begins with: the algorithm (id-ecPublicKey,
    /// prime256v1) and the BIT STRING's header, its uncompressed point (65 bytes) after it.
    static let p256PublicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
        0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// The `ECParameters` OID of prime256v1, as an `ECPrivateKey`'s `[0]` names the curve.
    private static let prime256v1: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]

    /// This key's `SubjectPublicKeyInfo` when it is a P-256 key with an uncompressed point; nil
    /// for any other key.
    var p256PublicKeyInfo: [UInt8]? {
        var name = [CChar](repeating: 0, count: 32)
        var nameLength = 0
        guard isEC, EVP_PKEY_get_group_name(pointer, &name, name.count, &nameLength) == 1,
            String(decoding: name.prefix(nameLength).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
        else {
            ERR_clear_error()
            return nil
        }
        var point = [UInt8](repeating: 0, count: 65)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(pointer, "encoded-pub-key", &point, point.count, &length) == 1,
            length == 65, point[0] == 0x04
        else {
            ERR_clear_error()
            return nil
        }
        return Self.p256PublicKeyInfoPrefix + point
    }

    /// The P-256 key of a PKCS#8 `PrivateKeyInfo` (`info`, read by `d2i_PKCS8_PRIV_KEY_INFO`),
    /// made by the EC key manager from the private scalar and the public point of its
    /// `ECPrivateKey`; nil when the key names another curve, carries no public point, or is not
    /// shaped as RFC 5915 says (the decoder then reads it, or refuses it).
    static func importedP256(_ info: OpaquePointer) -> OpaquePointer? {
        var keyBytes: UnsafePointer<UInt8>? = nil
        var keyLength: Int32 = 0
        var algorithm: UnsafePointer<X509_ALGOR>? = nil
        guard PKCS8_pkey_get0(nil, &keyBytes, &keyLength, &algorithm, info) == 1, let keyBytes, keyLength > 0,
            let algorithm
        else { return nil }
        var parameterType: Int32 = 0
        var parameter: UnsafeRawPointer? = nil
        X509_ALGOR_get0(nil, &parameterType, &parameter, algorithm)
        guard parameterType == V_ASN1_OBJECT, let parameter,
            OBJ_obj2nid(OpaquePointer(parameter)) == NID_X9_62_prime256v1
        else { return nil }
        let der = UnsafeBufferPointer(start: keyBytes, count: Int(keyLength))
        guard let (scalar, point) = scalarAndPoint(der) else { return nil }
        return fromParameters(scalar: scalar, point: point)
    }

    /// The private scalar and the public point (uncompressed, 65 bytes) of an `ECPrivateKey`
    /// (RFC 5915: version 1, the scalar, `[0]` the curve, `[1]` the point) on prime256v1.
    private static func scalarAndPoint(
        _ der: UnsafeBufferPointer<UInt8>
    ) -> (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>)? {
        var outer = DERStructure.Reader(bytes: der, start: 0, end: der.count)
        guard let sequence = outer.next(), sequence.tag == 0x30, outer.atEnd else { return nil }
        var fields = DERStructure.Reader(
            bytes: der, start: sequence.contents.lowerBound, end: sequence.contents.upperBound)
        guard let version = fields.next(), version.tag == 0x02, version.contents.count == 1,
            der[version.contents.lowerBound] == 1, let scalar = fields.next(), scalar.tag == 0x04,
            (1...32).contains(scalar.contents.count)
        else { return nil }
        var point: Range<Int>? = nil
        while let field = fields.next() {
            var inside = DERStructure.Reader(
                bytes: der, start: field.contents.lowerBound, end: field.contents.upperBound)
            guard let value = inside.next(), inside.atEnd else { return nil }
            switch field.tag {
            case 0xA0:
                guard der[(field.contents.lowerBound)..<field.contents.upperBound].elementsEqual(prime256v1) else {
                    return nil
                }
            case 0xA1:
                // A BIT STRING with no unused bits: 0x00, then the uncompressed point.
                guard value.tag == 0x03, value.contents.count == 66, der[value.contents.lowerBound] == 0,
                    der[value.contents.lowerBound + 1] == 0x04
                else { return nil }
                point = (value.contents.lowerBound + 1)..<value.contents.upperBound
            default: return nil
            }
        }
        guard let point else { return nil }
        return (UnsafeBufferPointer(rebasing: der[scalar.contents]), UnsafeBufferPointer(rebasing: der[point]))
    }

    /// The P-256 key pair of `scalar` (big-endian) and `point`, by `EVP_PKEY_fromdata`; nil when
    /// OpenSSL refuses them (a point not on the curve).
    private static func fromParameters(
        scalar: UnsafeBufferPointer<UInt8>, point: UnsafeBufferPointer<UInt8>
    )
        -> OpaquePointer?
    {
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard let number = BN_secure_new() else { return nil }
        defer { BN_clear_free(number) }
        guard BN_bin2bn(scalar.baseAddress, Int32(scalar.count), number) != nil,
            OSSL_PARAM_BLD_push_utf8_string(builder, "group", "prime256v1", 0) == 1,
            OSSL_PARAM_BLD_push_BN(builder, "priv", number) == 1,
            OSSL_PARAM_BLD_push_octet_string(builder, "pub", point.baseAddress, point.count) == 1,
            let parameters = OSSL_PARAM_BLD_to_param(builder)
        else {
            ERR_clear_error()
            return nil
        }
        // The scalar's copy is in the secure part, which `OSSL_PARAM_free` clears.
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            ERR_clear_error()
            return nil
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, Int32(keyPairSelection), parameters) == 1
        else {
            ERR_clear_error()
            return nil
        }
        return key
    }

    /// `EVP_PKEY_KEYPAIR`, a macro of macros Swift does not import.
    static var keyPairSelection: Int32 {
        Int32(
            OSSL_KEYMGMT_SELECT_PRIVATE_KEY | OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS
                | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS)
    }
}
