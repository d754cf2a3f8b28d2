import COpenSSL
import Foundation

/// An X.509 certificate held by OpenSSL. Immutable once read, so it may be shared between threads.
///
/// One read with `init(pemParsedOnUse:)` is kept as its DER until something asks OpenSSL about
/// it: each parse decodes the certificate's public key, which a chain that only travels in
/// `x5c` never needs (Docs/decisions/0095-chain-certificates-parsed-on-use.md).
public final class X509Certificate: @unchecked Sendable, Hashable, CustomStringConvertible {
    private enum Held {
        case parsed(OpaquePointer)
        case deferred(DeferredCertificate)
    }

    private let held: Held

    /// OpenSSL's certificate (parsed now when it was read to be parsed on use).
    var pointer: OpaquePointer {
        switch held {
        case .parsed(let pointer): pointer
        case .deferred(let deferred): deferred.pointer
        }
    }

    /// Whether OpenSSL has parsed the certificate (false only for one read to be parsed on use
    /// that nothing has asked OpenSSL about yet).
    var isParsed: Bool {
        switch held {
        case .parsed: true
        case .deferred(let deferred): deferred.isParsed
        }
    }

    init(taking pointer: OpaquePointer) {
        held = .parsed(pointer)
    }

    /// Takes another reference to an `X509` that OpenSSL owns (e.g. one inside a stack).
    init(retaining pointer: OpaquePointer) {
        X509_up_ref(pointer)
        held = .parsed(pointer)
    }

    deinit {
        if case .parsed(let pointer) = held { X509_free(pointer) }
    }

    /// Reads the first certificate of a PEM text and checks that its DER is shaped as a
    /// certificate (`DERStructure`), leaving OpenSSL's parse to the first use that needs it;
    /// `derRepresentation` is the file's own bytes, without a parse.
    /// - Throws: `CryptoError` when the text holds no PEM certificate or its DER is not shaped
    ///   as one.
    init(pemParsedOnUse pem: String) throws(CryptoError) {
        let bio = try MemoryBIO(Array(pem.utf8))
        // PEM_read_bio_X509's labels: the first PEM block that is a certificate.
        var found: [UInt8]?
        while found == nil, let block = bio.nextPEMBlock() {
            if ["CERTIFICATE", "X509 CERTIFICATE"].contains(block.label) { found = block.der }
        }
        guard let der = found else { throw CryptoError("PEM_read_bio", reason: "no PEM certificate found") }
        guard DERStructure.isCertificate(der) else {
            throw CryptoError("PEM_read_bio", reason: "not a DER X.509 certificate (\(der.count) bytes)")
        }
        held = .deferred(DeferredCertificate(der: der))
    }

    /// Reads a DER certificate.
    /// - Throws: `CryptoError` when the bytes are not one DER certificate.
    public convenience init(der: [UInt8]) throws(CryptoError) {
        let certificate: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let certificate else {
            throw CryptoError("d2i_X509", reason: "not a DER X.509 certificate (\(der.count) bytes)")
        }
        self.init(taking: certificate)
    }

    /// Reads the first certificate of a PEM text.
    /// - Throws: `CryptoError` when the text holds no PEM certificate.
    public convenience init(pem: String) throws(CryptoError) {
        let bio = try MemoryBIO(Array(pem.utf8))
        guard let certificate = PEM_read_bio_X509(bio.pointer, nil, nil, nil) else {
            throw CryptoError("PEM_read_bio_X509", reason: "no PEM certificate found")
        }
        self.init(taking: certificate)
    }

    /// Reads a certificate file in DER (`.cer`) or PEM.
    /// - Throws: `CryptoError` naming the file when it holds no certificate.
    public static func read(contentsOf url: URL) throws -> X509Certificate {
        let bytes = Array(try Data(contentsOf: url))
        do {
            if bytes.starts(with: Array("-----BEGIN".utf8)) || bytes.first != 0x30 {
                return try X509Certificate(pem: String(decoding: bytes, as: UTF8.self))
            }
            return try X509Certificate(der: bytes)
        } catch {
            throw CryptoError("reading certificate \(url.path)", reason: error.reason)
        }
    }

    /// Whether `key` is the private half of the public key this certificate certifies (their
    /// public parts compared, as `X509_check_private_key` does: no signature made).
    /// - Parameter key: the private key to compare.
    /// - Returns: true when the certificate's public key is `key`'s.
    public func certifies(_ key: PrivateKey) -> Bool {
        // A certificate not parsed yet whose public key info is the key's own P-256 key, byte for
        // byte, certifies it without a parse; any other answer is OpenSSL's.
        if case .deferred(let deferred) = held, let info = deferred.publicKeyInfo, let own = key.p256PublicKeyInfo,
            info.elementsEqual(own)
        {
            return true
        }
        guard X509_check_private_key(pointer, key.pointer) == 1 else {
            ERR_clear_error()
            return false
        }
        return true
    }

    /// The certificate's DER encoding.
    public var derRepresentation: [UInt8] {
        if case .deferred(let deferred) = held { return deferred.der }
        return (try? DER.encode("i2d_X509") { i2d_X509(pointer, $0) }) ?? []
    }

    /// The certificate as PEM text.
    public var pemRepresentation: String {
        let body = Data(derRepresentation).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }

    /// The subject name, one line (RFC 2253 order).
    public var subject: String { Self.name(X509_get_subject_name(pointer)) }

    /// The issuer name, one line (RFC 2253 order).
    public var issuer: String { Self.name(X509_get_issuer_name(pointer)) }

    /// The start of the validity period.
    public var notBefore: Date? { Self.date(X509_get0_notBefore(pointer)) }

    /// The end of the validity period.
    public var notAfter: Date? { Self.date(X509_get0_notAfter(pointer)) }

    /// Whether the certificate names itself as issuer and its signature checks with its own key.
    public var isSelfSigned: Bool { X509_self_signed(pointer, 1) == 1 }

    /// Whether the certificate carries the X.509 extension with object identifier `oid` (dotted form).
    public func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { return false }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
    }

    /// The serial number as lowercase hex without leading zeros (e.g. `1f3a`).
    public var serialHex: String {
        guard let serial = X509_get0_serialNumber(pointer), let number = ASN1_INTEGER_to_BN(serial, nil) else {
            return ""
        }
        defer { BN_free(number) }
        guard let hex = BN_bn2hex(number) else { return "" }
        defer { CRYPTO_free(hex, #fileID, #line) }
        return String(cString: hex).lowercased()
    }

    /// The OCSP responder URLs of the Authority Information Access extension, in order.
    /// A certificate read to be parsed on use is not parsed for them: its extensions are read alone.
    public var ocspResponderURLs: [String] {
        switch held {
        case .parsed(let pointer): Self.ocspResponderURLs(in: X509_get0_extensions(pointer))
        case .deferred(let deferred): deferred.withExtensions { Self.ocspResponderURLs(in: $0) }
        }
    }

    /// The OCSP responder URLs of the Authority Information Access extension among `extensions`
    /// (a `STACK_OF(X509_EXTENSION)`), in order: the URIs of its OCSP access descriptions that
    /// `X509_get1_ocsp` lists (IA5 strings, not empty, each once, up to a NUL).
    private static func ocspResponderURLs(in extensions: OpaquePointer?) -> [String] {
        guard let extensions, let access = X509V3_get_d2i(extensions, NID_info_access, nil, nil) else {
            ERR_clear_error()
            return []
        }
        let descriptions = OpaquePointer(access)
        defer { AUTHORITY_INFO_ACCESS_free(descriptions) }
        var urls: [String] = []
        for index in 0..<OPENSSL_sk_num(descriptions) {
            guard
                let description = OPENSSL_sk_value(descriptions, index)?.assumingMemoryBound(
                    to: ACCESS_DESCRIPTION.self),
                OBJ_obj2nid(description.pointee.method) == NID_ad_OCSP, let location = description.pointee.location,
                location.pointee.type == GEN_URI, let uri = location.pointee.d.uniformResourceIdentifier,
                uri.pointee.type == V_ASN1_IA5STRING, uri.pointee.length > 0, let bytes = uri.pointee.data
            else { continue }
            let text = UnsafeBufferPointer(start: bytes, count: Int(uri.pointee.length))
            let url = String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
            if !urls.contains(url) { urls.append(url) }
        }
        return urls
    }

    /// Checks a SHA-256 signature over `message` with this certificate's public key
    /// (ECDSA with a DER signature, or RSA PKCS#1 v1.5).
    /// - Returns: whether the signature is good.
    /// - Throws: `CryptoError` only if OpenSSL cannot set up the check.
    public func verifySHA256(signature: [UInt8], message: [UInt8]) throws(CryptoError) -> Bool {
        guard let key = X509_get0_pubkey(pointer) else { throw CryptoError("X509_get0_pubkey") }
        return try PublicKey.verifySHA256(signature: signature, message: message, key: key)
    }

    /// Whether this certificate's public key is an EC key.
    public var hasECKey: Bool {
        guard let key = X509_get0_pubkey(pointer) else { return false }
        return EVP_PKEY_get_base_id(key) == EVP_PKEY_EC
    }

    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool {
        X509_cmp(lhs.pointer, rhs.pointer) == 0
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(derRepresentation) }

    public var description: String { subject }

    private static func name(_ name: OpaquePointer?) -> String {
        guard let name, let bio = try? MemoryBIO() else { return "" }
        let flags =
            UInt(XN_FLAG_SEP_COMMA_PLUS) | UInt(XN_FLAG_FN_SN) | UInt(ASN1_STRFLGS_UTF8_CONVERT)
            | UInt(ASN1_STRFLGS_ESC_CTRL)
        guard X509_NAME_print_ex(bio.pointer, name, 0, flags) >= 0 else { return "" }
        return String(decoding: bio.bytes, as: UTF8.self)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
