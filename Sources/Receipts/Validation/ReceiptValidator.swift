import Crypto
import Foundation
import StoreKitValues

/// Validates app receipts: signature and chain against trusted roots (at the receipt's creation
/// date unless told otherwise), then bundle ID, app version and the device hash.
///
/// Validation returns a value; only misconfiguration (no usable root) throws.
public struct ReceiptValidator: Sendable {
    /// What the receipt must match besides its signature. Nil fields are not checked.
    public struct Expectations: Sendable, Hashable {
        /// The app's bundle identifier.
        public var bundleID: String?
        /// The app's version (`CFBundleVersion`).
        public var appVersion: String?
        /// The device identifier's bytes (`identifierForVendor` as 16 UUID bytes).
        public var deviceIdentifier: [UInt8]?

        /// Creates expectations.
        public init(bundleID: String? = nil, appVersion: String? = nil, deviceIdentifier: [UInt8]? = nil) {
            self.bundleID = bundleID
            self.appVersion = appVersion
            self.deviceIdentifier = deviceIdentifier
        }
    }

    /// The extension Apple puts on receipt-signing certificates (and this project's chain too).
    public static let receiptSignerMarker = "1.2.840.113635.100.6.11.1"

    private let roots: [X509Certificate]
    private let decoder: ReceiptDecoder
    private let signerMarker: String?

    /// Creates a validator trusting the given root certificates.
    /// - Parameters:
    ///   - trustedRoots: DER (`.cer`) or PEM encodings of the roots.
    ///   - signerMarker: the extension (dotted OID) a signer below the root must carry; nil accepts
    ///     any certificate the root vouches for. A signer that is itself a trusted root (Xcode's
    ///     self-signed StoreKit certificate) needs no marker.
    /// - Throws: `ReceiptValidatorError.noTrustedRoot` or `.unreadableRoot` on misconfiguration.
    public init(
        trustedRoots: [[UInt8]], signerMarker: String? = ReceiptValidator.receiptSignerMarker,
        decoder: ReceiptDecoder = ReceiptDecoder()
    ) throws(ReceiptValidatorError) {
        guard !trustedRoots.isEmpty else { throw .noTrustedRoot }
        self.roots = try TrustedRoots.certificates(trustedRoots)
        self.decoder = decoder
        self.signerMarker = signerMarker
    }

    /// Validates a receipt file's bytes (DER or base64).
    /// - Parameters:
    ///   - bytes: the receipt file.
    ///   - expectations: what the payload must match.
    ///   - date: when to check the certificates; nil means the receipt's own creation date.
    /// - Returns: `.valid(receipt)` or `.invalid(reason)`.
    public func validate(
        _ bytes: [UInt8], expecting expectations: Expectations = Expectations(), at date: Date? = nil
    )
        -> ReceiptValidationResult
    {
        let der: [UInt8]
        let payload: [UInt8]
        let receipt: AppReceipt
        do {
            der = try ReceiptDecoder.containerBytes(bytes)
            payload = try decoder.payload(ofContainer: der)
            receipt = try decoder.decodePayload(payload)
        } catch {
            return .invalid(.unreadable(error))
        }
        let checkedAt = date ?? receipt.creationDate ?? Date(timeIntervalSince1970: 0)
        let verification: Result<PKCS7.SignedContent, PKCS7.Failure>
        do {
            verification = try PKCS7.verify(der, trustedRoots: roots, at: checkedAt)
        } catch {
            return .invalid(.invalidCertificate(subject: "", reason: error.description))
        }
        switch verification {
        case .failure(let failure):
            return .invalid(Self.reason(failure, at: checkedAt))
        case .success(let signed):
            // The payload we decoded must be the one that was signed.
            guard signed.content == payload else {
                return .invalid(.signatureMismatch("the signed content differs from the decoded payload"))
            }
            if let marker = signerMarker, !roots.contains(signed.signer), !signed.signer.hasExtension(oid: marker) {
                return .invalid(.signerNotAuthorized(subject: signed.signer.subject, missingMarker: marker))
            }
        }
        if let bundleID = expectations.bundleID, bundleID != receipt.bundleID {
            return .invalid(.bundleIDMismatch(expected: bundleID, found: receipt.bundleID))
        }
        if let appVersion = expectations.appVersion, appVersion != receipt.appVersion {
            return .invalid(.appVersionMismatch(expected: appVersion, found: receipt.appVersion))
        }
        if let identifier = expectations.deviceIdentifier {
            guard (try? Self.deviceHash(identifier: identifier, receipt: receipt)) == receipt.sha1Hash else {
                return .invalid(.deviceHashMismatch)
            }
        }
        return .valid(receipt)
    }

    /// The SHA-1 hash a receipt carries for a device: SHA1(identifier ‖ opaque value ‖ bundle ID data).
    /// - Throws: `CryptoError` if OpenSSL cannot hash.
    public static func deviceHash(identifier: [UInt8], receipt: AppReceipt) throws -> [UInt8] {
        try deviceHash(identifier: identifier, opaqueValue: receipt.opaqueValue, bundleIDData: receipt.bundleIDData)
    }

    /// The SHA-1 hash over a device identifier, an opaque value and the bundle ID's DER.
    /// - Throws: `CryptoError` if OpenSSL cannot hash.
    public static func deviceHash(identifier: [UInt8], opaqueValue: [UInt8], bundleIDData: [UInt8]) throws -> [UInt8] {
        var digest = try Digest(.sha1)
        try digest.update(identifier)
        try digest.update(opaqueValue)
        try digest.update(bundleIDData)
        return try digest.finalize()
    }

    /// The 16 bytes of a UUID string such as `identifierForVendor`, or nil if it is not a UUID.
    public static func deviceIdentifier(uuid: String) -> [UInt8]? {
        guard let value = UUID(uuidString: uuid) else { return nil }
        return withUnsafeBytes(of: value.uuid) { Array($0) }
    }

    private static func reason(_ failure: PKCS7.Failure, at date: Date) -> ReceiptInvalidReason {
        switch failure {
        case .malformed(let detail): return .unreadable(.notSignedData(offset: 0, reason: detail))
        case .signerNotFound(let detail): return .signerCertificateMissing(detail)
        case .signatureMismatch(let detail): return .signatureMismatch(detail)
        case .chain(let failure): return .chain(failure, checkedAt: date)
        }
    }
}
