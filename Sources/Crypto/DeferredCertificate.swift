import COpenSSL
import Foundation

/// A certificate's DER, parsed by OpenSSL the first time it is asked for (under a lock, once).
final class DeferredCertificate: @unchecked Sendable {
    /// The bytes read, shaped as a certificate (`DERStructure.isCertificate`).
    let der: [UInt8]
    private let lock = NSLock()
    private var parsed: OpaquePointer?

    init(der: [UInt8]) {
        self.der = der
    }

    /// Whether OpenSSL has parsed the bytes yet.
    var isParsed: Bool { lock.withLock { parsed != nil } }

    /// The `SubjectPublicKeyInfo` DER, read from the bytes without a parse; nil when they do not
    /// hold one where a certificate does.
    var publicKeyInfo: ArraySlice<UInt8>? {
        der.withUnsafeBufferPointer { CertificateFields($0) }.map { der[$0.publicKeyInfo] }
    }

    /// Runs `body` on the certificate's extensions (a `STACK_OF(X509_EXTENSION)`, nil for none),
    /// read by OpenSSL from the bytes of the extensions alone: the certificate is not parsed (its
    /// public key is not decoded) unless it has been already.
    func withExtensions<R>(_ body: (OpaquePointer?) -> R) -> R {
        if let parsed = lock.withLock({ parsed }) { return body(X509_get0_extensions(parsed)) }
        guard let range = der.withUnsafeBufferPointer({ CertificateFields($0) })?.extensions else { return body(nil) }
        let extensions = der[range].withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509_EXTENSIONS(nil, &cursor, buffer.count)
        }
        ERR_clear_error()
        defer { OPENSSL_sk_pop_free(extensions, { X509_EXTENSION_free(OpaquePointer($0)) }) }
        return body(extensions)
    }

    deinit {
        if let parsed { X509_free(parsed) }
    }

    /// OpenSSL's certificate. DER that is shaped as a certificate but that OpenSSL refuses (a
    /// public key that is no point of its curve) gives an empty certificate, which certifies
    /// no key and chains to nothing: every check that needs the certificate then fails.
    var pointer: OpaquePointer {
        lock.withLock {
            if let parsed { return parsed }
            let certificate = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_X509(nil, &cursor, buffer.count)
            }
            ERR_clear_error()
            guard let made = certificate ?? X509_new() else { fatalError("X509_new: out of memory") }
            parsed = made
            return made
        }
    }
}
