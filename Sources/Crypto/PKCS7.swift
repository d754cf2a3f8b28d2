import COpenSSL
import Foundation

/// PKCS#7 / CMS SignedData, the container of App Store receipts: signing with SHA-256 and no
/// signed attributes (as Apple signs receipts), and verification against a trusted root at a
/// given time (receipts are checked at their creation date).
public enum PKCS7 {
    /// What a good SignedData holds.
    public struct SignedContent: Sendable {
        /// The signed content (for a receipt: the attribute SET).
        public let content: [UInt8]
        /// The certificate that made the signature.
        public let signer: X509Certificate
        /// Every certificate that rode in the container.
        public let certificates: [X509Certificate]
    }

    /// Why a SignedData is not acceptable.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The bytes are not a PKCS#7 SignedData OpenSSL can read.
        case malformed(String)
        /// The container does not hold the certificate of its signer.
        case signerNotFound(String)
        /// The signature does not match the content (changed content or wrong key).
        case signatureMismatch(String)
        /// The signer's certificate does not chain to the trusted root at the given time.
        case chain(CertificateChain.Failure)

        public var description: String {
            switch self {
            case .malformed(let reason): "not a readable PKCS#7 SignedData: \(reason)"
            case .signerNotFound(let reason): "the signer's certificate is not in the container: \(reason)"
            case .signatureMismatch(let reason): "the signature does not match the signed content: \(reason)"
            case .chain(let failure): failure.description
            }
        }
    }

    /// Signs `content` as a SignedData (SHA-256, no signed attributes) carrying `chain`.
    /// - Parameters:
    ///   - content: the bytes to sign; they are embedded in the container.
    ///   - signer: the signing certificate, matching `key`.
    ///   - key: the signing key (EC P-256 or RSA).
    ///   - chain: further certificates to carry (intermediate, root).
    /// - Returns: the DER encoding.
    /// - Throws: `CryptoError` if OpenSSL cannot sign.
    public static func sign(
        _ content: [UInt8], signer: X509Certificate, key: PrivateKey, chain: [X509Certificate]
    ) throws(CryptoError) -> [UInt8] {
        let flags = UInt32(CMS_BINARY | CMS_NOATTR | CMS_NOSMIMECAP | CMS_PARTIAL)
        let extra = try CertificateStack(chain)
        guard let cms = CMS_sign(nil, nil, extra.pointer, nil, flags) else { throw CryptoError("CMS_sign") }
        defer { CMS_ContentInfo_free(cms) }
        guard CMS_add1_signer(cms, signer.pointer, key.pointer, EVP_sha256(), flags) != nil else {
            throw CryptoError("CMS_add1_signer")
        }
        let data = try MemoryBIO(content)
        guard CMS_final(cms, data.pointer, nil, flags) == 1 else { throw CryptoError("CMS_final") }
        return try DER.encode("i2d_CMS_ContentInfo") { i2d_CMS_ContentInfo(cms, $0) }
    }

    /// Verifies a SignedData (BER or DER): the signature with the signer certificate it carries,
    /// then that certificate's chain to `trustedRoots` at `date`, using the container's other
    /// certificates as intermediates.
    /// - Returns: the content and certificates, or why the container is not acceptable.
    /// - Throws: `CryptoError` only for misuse (no root) or OpenSSL resource failures.
    public static func verify(
        _ der: [UInt8], trustedRoots: [X509Certificate], at date: Date
    ) throws(CryptoError) -> Result<SignedContent, Failure> {
        guard !trustedRoots.isEmpty else { throw CryptoError("PKCS#7 verification", reason: "no trusted root given") }
        defer { ERR_clear_error() }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_CMS_ContentInfo(nil, &cursor, buffer.count)
        }
        guard let cms = parsed else { return .failure(.malformed(CryptoError("d2i_CMS_ContentInfo").reason)) }
        defer { CMS_ContentInfo_free(cms) }
        guard let typeObject = CMS_get0_type(cms), OBJ_obj2nid(typeObject) == NID_pkcs7_signed else {
            return .failure(.malformed("content type is not signedData"))
        }
        let output = try MemoryBIO()
        let flags = UInt32(CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY)
        if CMS_verify(cms, nil, nil, nil, output.pointer, flags) != 1 {
            let error = CryptoError("CMS_verify")
            if error.reason.contains("signer certificate not found") {
                return .failure(.signerNotFound(error.reason))
            }
            if error.reason.contains("no content") || error.reason.contains("wrong content type") {
                return .failure(.malformed(error.reason))
            }
            return .failure(.signatureMismatch(error.reason))
        }
        guard let signers = CMS_get0_signers(cms), OPENSSL_sk_num(signers) > 0,
            let first = OPENSSL_sk_value(signers, 0)
        else {
            return .failure(.signerNotFound("no signer certificate"))
        }
        defer { OPENSSL_sk_free(signers) }
        let signer = X509Certificate(retaining: OpaquePointer(first))
        var otherSigners: [X509Certificate] = []
        for index in 1..<max(1, OPENSSL_sk_num(signers)) {
            if let pointer = OPENSSL_sk_value(signers, index) {
                otherSigners.append(X509Certificate(retaining: OpaquePointer(pointer)))
            }
        }
        var certificates: [X509Certificate] = []
        if let stack = CMS_get1_certs(cms) {
            for index in 0..<OPENSSL_sk_num(stack) {
                if let certificate = OPENSSL_sk_value(stack, index) {
                    certificates.append(X509Certificate(retaining: OpaquePointer(certificate)))
                }
            }
            OPENSSL_sk_pop_free(stack, freeCertificate)
        }
        // Every signer must chain to the root, not only the first.
        for each in [signer] + otherSigners {
            if let failure = try CertificateChain.verify(
                leaf: each, intermediates: certificates, trustedRoots: trustedRoots, at: date)
            {
                return .failure(.chain(failure))
            }
        }
        return .success(SignedContent(content: output.bytes, signer: signer, certificates: certificates))
    }
}

private func freeCertificate(_ pointer: UnsafeMutableRawPointer?) {
    X509_free(OpaquePointer(pointer))
}

extension PKCS7.Failure: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
