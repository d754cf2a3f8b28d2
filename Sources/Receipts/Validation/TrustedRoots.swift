import Crypto
import StoreKitValues

/// The trusted root certificates a receipt validator or JWS verifier is given, read once.
enum TrustedRoots {
    /// Reads each root, DER (it starts with a SEQUENCE) or PEM.
    /// - Throws: `ReceiptValidatorError.unreadableRoot` naming the first root that cannot be read.
    static func certificates(_ roots: [[UInt8]]) throws(ReceiptValidatorError) -> [X509Certificate] {
        var certificates: [X509Certificate] = []
        for (index, bytes) in roots.enumerated() {
            do {
                certificates.append(
                    bytes.first == 0x30
                        ? try X509Certificate(der: bytes)
                        : try X509Certificate(pem: String(decoding: bytes, as: UTF8.self)))
            } catch {
                throw .unreadableRoot(index: index, reason: error.reason)
            }
        }
        return certificates
    }
}
