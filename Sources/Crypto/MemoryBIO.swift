import COpenSSL

/// An OpenSSL memory BIO, freed when the value goes away. Internal: C types stay in this module.
final class MemoryBIO {
    let pointer: OpaquePointer

    /// An empty, writable BIO.
    init() throws(CryptoError) {
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError("BIO_new") }
        pointer = bio
    }

    /// A BIO holding a copy of `bytes`, to read from.
    init(_ bytes: [UInt8]) throws(CryptoError) {
        guard let bio = BIO_new(BIO_s_mem()) else { throw CryptoError("BIO_new") }
        pointer = bio
        guard !bytes.isEmpty else { return }
        let written = bytes.withUnsafeBytes { BIO_write(bio, $0.baseAddress, Int32(clamping: $0.count)) }
        guard written == bytes.count else { throw CryptoError("BIO_write") }
    }

    deinit { BIO_free(pointer) }

    /// What `read` (a `PEM_read_bio_*` function) makes of `pem`.
    /// - Throws: `CryptoError` naming `operation` when it reads nothing.
    static func readPEM(
        _ pem: String, _ operation: String, _ read: (OpaquePointer) -> OpaquePointer?
    ) throws(CryptoError) -> OpaquePointer {
        let bio = try MemoryBIO(Array(pem.utf8))
        guard let object = read(bio.pointer) else { throw CryptoError(operation) }
        return object
    }

    /// The PEM text `write` (a `PEM_write_bio_*` function, 1 on success) writes.
    /// - Throws: `CryptoError` naming `operation` when it fails.
    static func writePEM(_ operation: String, _ write: (OpaquePointer) -> Int32) throws(CryptoError) -> String {
        let bio = try MemoryBIO()
        guard write(bio.pointer) == 1 else { throw CryptoError(operation) }
        return String(decoding: bio.bytes, as: UTF8.self)
    }

    /// The next PEM block: its label (`CERTIFICATE`, `PRIVATE KEY`…) and its DER bytes, nil at
    /// the end of the text or at text that is not PEM (OpenSSL's error queue is cleared then).
    func nextPEMBlock() -> (label: String, der: [UInt8])? {
        var name: UnsafeMutablePointer<CChar>? = nil
        var header: UnsafeMutablePointer<CChar>? = nil
        var data: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        defer {
            CRYPTO_free(name, nil, 0)
            CRYPTO_free(header, nil, 0)
            CRYPTO_free(data, nil, 0)
        }
        guard PEM_read_bio(pointer, &name, &header, &data, &length) == 1, let name, let data else {
            ERR_clear_error()
            return nil
        }
        return (String(cString: name), Array(UnsafeBufferPointer(start: data, count: length)))
    }

    /// Everything written to the BIO so far.
    var bytes: [UInt8] {
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = BIO_ctrl(pointer, BIO_CTRL_INFO, 0, &data)
        guard length > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }
}

/// Helpers for OpenSSL's `i2d_*` functions, which write DER in two calls (size, then bytes).
enum DER {
    static func encode(
        _ operation: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    )
        throws(CryptoError) -> [UInt8]
    {
        let length = body(nil)
        guard length > 0 else { throw CryptoError(operation) }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return body(&cursor)
        }
        guard written == length else { throw CryptoError(operation) }
        return out
    }
}

/// A stack of certificates for OpenSSL calls, freed (without freeing the certificates) on deinit.
final class CertificateStack {
    let pointer: OpaquePointer
    private let retained: [X509Certificate]

    init(_ certificates: [X509Certificate]) throws(CryptoError) {
        guard let stack = OPENSSL_sk_new_null() else { throw CryptoError("OPENSSL_sk_new_null") }
        pointer = stack
        retained = certificates
        for certificate in certificates {
            guard OPENSSL_sk_push(stack, UnsafeRawPointer(certificate.pointer)) > 0 else {
                throw CryptoError("OPENSSL_sk_push")
            }
        }
    }

    deinit { OPENSSL_sk_free(pointer) }
}
