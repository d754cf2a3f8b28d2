import COpenSSL
import Foundation

/// Makes X.509 certificates with OpenSSL: self-signed roots, intermediates and leaves.
public enum CertificateIssuer {
    /// What a new certificate is for.
    public enum Role: Sendable, Hashable {
        /// A certificate authority; `pathLength` limits the CAs below it.
        case authority(pathLength: Int?)
        /// An end-entity certificate that signs data (receipts, JWS).
        case signing
    }

    /// Issues a certificate for `subjectKey`, signed with SHA-256 by `issuerKey`.
    /// - Parameters:
    ///   - commonName: the subject CN; `organization` becomes the O.
    ///   - subjectKey: the key the certificate certifies.
    ///   - issuer: the issuing certificate; nil makes a self-signed certificate.
    ///   - issuerKey: the issuer's private key (the subject's own key when self-signed).
    ///   - serial: the serial number (unique per issuer).
    ///   - notBefore, notAfter: the validity period.
    ///   - role: CA or signing certificate.
    ///   - markerExtensions: extra non-critical extensions, by dotted OID, with a NULL value
    ///     (Apple marks its receipt and JWS certificates this way).
    ///   - ocspURL: the OCSP responder named in an Authority Information Access extension, as
    ///     Apple's certificates name theirs; nil for none.
    /// - Throws: `CryptoError` if OpenSSL cannot make the certificate.
    public static func issue(
        commonName: String, organization: String, subjectKey: PrivateKey, issuer: X509Certificate?,
        issuerKey: PrivateKey, serial: UInt64, notBefore: Date, notAfter: Date, role: Role,
        markerExtensions: [String] = [], ocspURL: String? = nil
    ) throws(CryptoError) -> X509Certificate {
        if let ocspURL, ocspURL.contains(where: { $0 == "," || $0.isWhitespace }) || !ocspURL.hasPrefix("http") {
            throw CryptoError(
                "issuing certificate \(commonName)", reason: "the OCSP URL \"\(ocspURL)\" is not an http(s) URL")
        }
        guard notBefore < notAfter else {
            throw CryptoError("issuing certificate \(commonName)", reason: "validity ends before it starts")
        }
        guard let certificate = X509_new() else { throw CryptoError("X509_new") }
        let result = X509Certificate(taking: certificate)
        guard X509_set_version(certificate, 2) == 1,
            ASN1_INTEGER_set_uint64(X509_get_serialNumber(certificate), serial) == 1
        else { throw CryptoError("X509_set_version") }
        guard let name = X509_NAME_new() else { throw CryptoError("X509_NAME_new") }
        defer { X509_NAME_free(name) }
        // MBSTRING_UTF8 is MBSTRING_FLAG (0x1000); the macro does not import into Swift.
        let utf8 = Int32(0x1000)
        guard X509_NAME_add_entry_by_txt(name, "CN", utf8, commonName, -1, -1, 0) == 1,
            X509_NAME_add_entry_by_txt(name, "O", utf8, organization, -1, -1, 0) == 1
        else { throw CryptoError("X509_NAME_add_entry_by_txt") }
        guard X509_set_subject_name(certificate, name) == 1 else { throw CryptoError("X509_set_subject_name") }
        let issuerName = issuer.map { X509_get_subject_name($0.pointer) } ?? name
        guard X509_set_issuer_name(certificate, issuerName) == 1 else { throw CryptoError("X509_set_issuer_name") }
        guard let start = time_t(exactly: notBefore.timeIntervalSince1970.rounded(.down)),
            let end = time_t(exactly: notAfter.timeIntervalSince1970.rounded(.down))
        else { throw CryptoError("issuing certificate \(commonName)", reason: "validity dates out of range") }
        guard ASN1_TIME_set(X509_getm_notBefore(certificate), start) != nil,
            ASN1_TIME_set(X509_getm_notAfter(certificate), end) != nil
        else { throw CryptoError("ASN1_TIME_set") }
        guard X509_set_pubkey(certificate, subjectKey.pointer) == 1 else { throw CryptoError("X509_set_pubkey") }

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.pointer ?? certificate, certificate, nil, nil, 0)
        var extensions: [(String, String)] = []
        switch role {
        case .authority(let pathLength):
            extensions.append(("basicConstraints", "critical,CA:TRUE" + (pathLength.map { ",pathlen:\($0)" } ?? "")))
            extensions.append(("keyUsage", "critical,keyCertSign,cRLSign"))
        case .signing:
            extensions.append(("basicConstraints", "critical,CA:FALSE"))
            extensions.append(("keyUsage", "critical,digitalSignature"))
        }
        extensions.append(("subjectKeyIdentifier", "hash"))
        if issuer != nil { extensions.append(("authorityKeyIdentifier", "keyid:always")) }
        if let ocspURL { extensions.append(("authorityInfoAccess", "OCSP;URI:\(ocspURL)")) }
        for oid in markerExtensions { extensions.append((oid, "DER:05:00")) }
        for (name, value) in extensions {
            guard let ext = X509V3_EXT_nconf(nil, &context, name, value) else {
                throw CryptoError("X509V3_EXT_nconf \(name)")
            }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(certificate, ext, -1) == 1 else { throw CryptoError("X509_add_ext \(name)") }
        }
        guard X509_sign(certificate, issuerKey.pointer, EVP_sha256()) > 0 else { throw CryptoError("X509_sign") }
        return result
    }
}
