import Foundation
import SystemIO

/// A three-level certificate chain — root → intermediate → signing certificates — made with
/// OpenSSL on first use and kept as PEM files in a directory, like the App Store's own chain.
///
/// Below the intermediate sit two signers, as at Apple: an EC P-256 one for JWS (ES256) and an
/// RSA one for PKCS#7 receipts. The intermediate and both signers name an OCSP responder in an
/// Authority Information Access extension when the configuration gives one. The root can be
/// exported as a DER file for a server to trust.
public struct CertificateAuthority: Sendable {
    /// How a new chain is made.
    public struct Configuration: Sendable, Hashable {
        /// The organization in every subject, and the prefix of each common name.
        public var organization: String
        /// The key type of the root, the intermediate and the JWS signer.
        public var keyKind: PrivateKey.Kind
        /// The key type of the receipt signer (RSA, as Apple and Xcode sign receipts); nil to
        /// make none now (`loadOrCreate` then loads one only if the directory has it: RSA keys
        /// are slow to make, and a store that never issues a receipt needs none).
        public var receiptKeyKind: PrivateKey.Kind?
        /// Whether `loadOrCreate` reads the receipt signer the directory has when `receiptKeyKind`
        /// is nil. A chain that signs only JWS leaves it unread: its RSA key and its certificate
        /// are two of OpenSSL's public-key decodes, about 3.3 M instructions of a `storefront buy`.
        public var readsReceiptSigner: Bool
        /// How long the root is valid.
        public var rootValidity: TimeInterval
        /// How long the intermediate is valid.
        public var intermediateValidity: TimeInterval
        /// How long the signing certificates are valid.
        public var signingValidity: TimeInterval
        /// Extensions (dotted OIDs, NULL value) on the intermediate, as Apple's WWDR marks it.
        public var intermediateMarkers: [String]
        /// Extensions (dotted OIDs, NULL value) on the signing certificates.
        public var signingMarkers: [String]
        /// The OCSP responder the intermediate and the signers name (Authority Information
        /// Access); nil for none.
        public var ocspURL: String?

        /// Creates a configuration; the defaults give an EC P-256 chain valid for 20/10/5 years
        /// with an RSA-2048 receipt signer, marked with Apple's WWDR intermediate and
        /// receipt/JWS signer OIDs, naming no OCSP responder.
        public init(
            organization: String = "Storefront Local App Store", keyKind: PrivateKey.Kind = .p256,
            receiptKeyKind: PrivateKey.Kind? = .rsa(bits: 2048), readsReceiptSigner: Bool = true,
            rootValidity: TimeInterval = 20 * 365 * 86_400, intermediateValidity: TimeInterval = 10 * 365 * 86_400,
            signingValidity: TimeInterval = 5 * 365 * 86_400,
            intermediateMarkers: [String] = ["1.2.840.113635.100.6.2.1"],
            signingMarkers: [String] = ["1.2.840.113635.100.6.11.1"], ocspURL: String? = nil
        ) {
            self.organization = organization
            self.keyKind = keyKind
            self.receiptKeyKind = receiptKeyKind
            self.readsReceiptSigner = readsReceiptSigner
            self.rootValidity = rootValidity
            self.intermediateValidity = intermediateValidity
            self.signingValidity = signingValidity
            self.intermediateMarkers = intermediateMarkers
            self.signingMarkers = signingMarkers
            self.ocspURL = ocspURL
        }
    }

    /// The file names the chain is kept under.
    public enum FileName {
        /// The root certificate, PEM.
        public static let root = "root.pem"
        /// The root's private key, PEM, mode 0600.
        public static let rootKey = "root-key.pem"
        /// The intermediate certificate, PEM.
        public static let intermediate = "intermediate.pem"
        /// The intermediate's private key, PEM, mode 0600.
        public static let intermediateKey = "intermediate-key.pem"
        /// The JWS signing certificate, PEM.
        public static let signing = "signing.pem"
        /// The JWS signing private key, PEM, mode 0600.
        public static let signingKey = "signing-key.pem"
        /// The receipt signing certificate, PEM (added to a chain made before receipts were RSA).
        public static let receiptSigning = "receipt-signing.pem"
        /// The receipt signing private key, PEM, mode 0600 (added likewise).
        public static let receiptSigningKey = "receipt-signing-key.pem"
        /// The directory of certificates re-issued for another OCSP URL (one subdirectory each).
        public static let issued = "issued"

        /// The files every chain has had since the first version; a directory with only some
        /// of them is damaged.
        static let all = [root, rootKey, intermediate, intermediateKey, signing, signingKey]
    }

    /// The self-signed root.
    public let root: X509Certificate
    /// The intermediate, issued by the root.
    public let intermediate: X509Certificate
    /// The certificate that signs JWS (transactions, renewal info, app transactions).
    public let signingCertificate: X509Certificate
    /// The JWS signing certificate's private key (EC P-256 for ES256).
    public let signingKey: PrivateKey
    /// The certificate that signs PKCS#7 app receipts; nil when the chain was loaded without one.
    public let receiptSigningCertificate: X509Certificate?
    /// The receipt signing certificate's private key (RSA by default).
    public let receiptSigningKey: PrivateKey?

    /// The chain as `x5c` carries it: JWS signing certificate, intermediate, root.
    public var chain: [X509Certificate] { [signingCertificate, intermediate, root] }

    /// The OCSP responder the certificates name, if any.
    public var ocspURL: String? { signingCertificate.ocspResponderURLs.first }

    /// A chain with the issuing keys of its two CA levels: keys that sign certificates and OCSP
    /// answers, never a transaction or a receipt, so a chain loaded to sign goes without them.
    public struct Keys: Sendable {
        /// The chain and its signers' keys.
        public let authority: CertificateAuthority
        /// The root's key: it issues intermediates and answers OCSP for them.
        public let rootKey: PrivateKey
        /// The intermediate's key: it issues the signers and answers OCSP for them.
        public let intermediateKey: PrivateKey
    }

    /// Makes a new chain in memory.
    /// - Parameters:
    ///   - configuration: key types, names, validity and OCSP URL.
    ///   - now: the start of every validity period.
    /// - Throws: `CryptoError` if OpenSSL cannot make a key or certificate.
    public static func create(configuration: Configuration = Configuration(), now: Date) throws(CryptoError) -> Keys {
        let rootKey = try PrivateKey.generate(configuration.keyKind)
        let root = try CertificateIssuer.issue(
            commonName: "\(configuration.organization) Root CA", organization: configuration.organization,
            subjectKey: rootKey,
            issuer: nil, issuerKey: rootKey, serial: try randomSerial(), notBefore: now,
            notAfter: now + configuration.rootValidity, role: .authority(pathLength: 1))
        let intermediateKey = try PrivateKey.generate(configuration.keyKind)
        let issued = try issueBelowRoot(
            root: root, rootKey: rootKey, intermediateKey: intermediateKey,
            signingKey: try PrivateKey.generate(configuration.keyKind),
            receiptKey: try configuration.receiptKeyKind.map { kind throws(CryptoError) in try PrivateKey.generate(kind)
            },
            configuration: configuration, now: now)
        return Keys(authority: issued, rootKey: rootKey, intermediateKey: intermediateKey)
    }

    /// Issues the intermediate and the signers for existing keys under `root`: a new chain,
    /// or the same keys certified again for another OCSP URL (new serials, same names).
    /// - Throws: `CryptoError` if OpenSSL cannot make a certificate.
    static func issueBelowRoot(
        root: X509Certificate, rootKey: PrivateKey, intermediateKey: PrivateKey, signingKey: PrivateKey,
        receiptKey: PrivateKey?, configuration: Configuration, now: Date
    ) throws(CryptoError) -> CertificateAuthority {
        let organization = configuration.organization
        func until(_ validity: TimeInterval, within issuer: X509Certificate) -> Date {
            min(now + validity, issuer.notAfter ?? now + validity)
        }
        let intermediate = try CertificateIssuer.issue(
            commonName: "\(organization) Intermediate CA", organization: organization, subjectKey: intermediateKey,
            issuer: root, issuerKey: rootKey, serial: try randomSerial(), notBefore: now,
            notAfter: until(configuration.intermediateValidity, within: root), role: .authority(pathLength: 0),
            markerExtensions: configuration.intermediateMarkers, ocspURL: configuration.ocspURL)
        let signing = try CertificateIssuer.issue(
            commonName: "\(organization) Signing", organization: organization, subjectKey: signingKey,
            issuer: intermediate, issuerKey: intermediateKey, serial: try randomSerial(), notBefore: now,
            notAfter: until(configuration.signingValidity, within: intermediate), role: .signing,
            markerExtensions: configuration.signingMarkers, ocspURL: configuration.ocspURL)
        let receipt = try receiptKey.map { key throws(CryptoError) in
            try issueReceiptSigner(
                key: key, intermediate: intermediate, intermediateKey: intermediateKey, configuration: configuration,
                now: now)
        }
        return CertificateAuthority(
            root: root, intermediate: intermediate, signingCertificate: signing, signingKey: signingKey,
            receiptSigningCertificate: receipt, receiptSigningKey: receiptKey)
    }

    /// Issues the receipt signer's certificate for `key` under `intermediate`.
    /// - Throws: `CryptoError` if OpenSSL cannot make the certificate.
    static func issueReceiptSigner(
        key: PrivateKey, intermediate: X509Certificate, intermediateKey: PrivateKey, configuration: Configuration,
        now: Date
    ) throws(CryptoError) -> X509Certificate {
        let organization = configuration.organization
        return try CertificateIssuer.issue(
            commonName: "\(organization) Receipt Signing", organization: organization, subjectKey: key,
            issuer: intermediate, issuerKey: intermediateKey, serial: try randomSerial(), notBefore: now,
            notAfter: min(
                now + configuration.signingValidity, intermediate.notAfter ?? now + configuration.signingValidity),
            role: .signing, markerExtensions: configuration.signingMarkers, ocspURL: configuration.ocspURL)
    }

    /// A random positive 63-bit serial: serials must be unique per issuer, and certificates are
    /// issued again (for another OCSP URL) long after the first ones.
    static func randomSerial() throws(CryptoError) -> UInt64 {
        let random: [UInt8]
        do { random = try SecureRandom.bytes(count: 8) } catch { throw CryptoError("RAND_bytes") }
        return max(1, random.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } >> 1)
    }

    /// Writes the root certificate as DER (a `.cer` file a server can trust), replacing the
    /// file atomically and durably (SystemIO's `replaceAtomically`), mode 0644.
    /// - Throws: the file system's `SystemCallError`.
    public func exportRoot(to url: URL, fileSystem: any FileSystem = POSIXFileSystem()) throws {
        try fileSystem.replaceAtomically(
            url.path, with: root.derRepresentation, temporaryPath: url.path + ".tmp-\(UUID().uuidString)", mode: 0o644)
    }
}
