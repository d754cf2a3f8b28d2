import Crypto
import Foundation
import StoreKitValues

/// Issues app receipts the way the App Store does: the payload encoded by `ReceiptEncoder`,
/// wrapped in a PKCS#7 SignedData (SHA-256, no signed attributes) carrying the whole chain,
/// signed by the authority's receipt signer (RSA, as Apple's and Xcode's receipts are).
public struct ReceiptSigner: Sendable {
    private let authority: CertificateAuthority
    private let encoder: ReceiptEncoder

    /// Creates a signer that signs with `authority`'s receipt signing certificate.
    public init(authority: CertificateAuthority, encoder: ReceiptEncoder = ReceiptEncoder()) {
        self.authority = authority
        self.encoder = encoder
    }

    /// Encodes and signs `receipt`.
    /// - Returns: the DER receipt file (what the App Store writes to `appStoreReceiptURL`).
    /// - Throws: `CryptoError` if OpenSSL cannot sign, or when the authority was loaded without
    ///   its receipt signer.
    public func sign(_ receipt: AppReceipt) throws(CryptoError) -> [UInt8] {
        guard let certificate = authority.receiptSigningCertificate, let key = authority.receiptSigningKey else {
            throw CryptoError(
                "signing a receipt", reason: "the certificate authority was loaded without its receipt signer")
        }
        return try PKCS7.sign(
            encoder.encodePayload(receipt), signer: certificate, key: key,
            chain: [authority.intermediate, authority.root])
    }

    /// Binds `receipt` to a device: sets its opaque value and the SHA-1 hash over the device
    /// identifier, that opaque value and the bundle ID's DER, so the device hash check passes.
    /// - Throws: `CryptoError` if OpenSSL cannot hash.
    public static func bind(_ receipt: inout AppReceipt, deviceIdentifier: [UInt8], opaqueValue: [UInt8]) throws {
        if receipt.bundleIDData.isEmpty { receipt.bundleIDData = DEREncoder.utf8String(receipt.bundleID) }
        receipt.opaqueValue = opaqueValue
        receipt.sha1Hash = try ReceiptValidator.deviceHash(
            identifier: deviceIdentifier, opaqueValue: opaqueValue, bundleIDData: receipt.bundleIDData)
    }
}
