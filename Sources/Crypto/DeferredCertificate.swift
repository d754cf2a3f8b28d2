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
