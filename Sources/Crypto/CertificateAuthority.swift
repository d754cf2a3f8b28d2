import Foundation

/// A three-level certificate chain — root → intermediate → signing certificate — made with
/// OpenSSL on first use and kept as PEM files in a directory, like the App Store's own chain.
/// The root can be exported as a DER file for a server to trust.
public struct CertificateAuthority: Sendable {
    /// How a new chain is made.
    public struct Configuration: Sendable, Hashable {
        /// The organization in every subject, and the prefix of each common name.
        public var organization: String
        /// The key type of all three levels.
        public var keyKind: PrivateKey.Kind
        /// How long the root is valid.
        public var rootValidity: TimeInterval
        /// How long the intermediate is valid.
        public var intermediateValidity: TimeInterval
        /// How long the signing certificate is valid.
        public var signingValidity: TimeInterval
        /// Extensions (dotted OIDs, NULL value) on the intermediate, as Apple's WWDR marks it.
        public var intermediateMarkers: [String]
        /// Extensions (dotted OIDs, NULL value) on the signing certificate.
        public var signingMarkers: [String]

        /// Creates a configuration; the defaults give an EC P-256 chain valid for 20/10/5 years,
        /// marked with Apple's WWDR intermediate and receipt/JWS signer OIDs.
        public init(
            organization: String = "Storefront Local App Store", keyKind: PrivateKey.Kind = .p256,
            rootValidity: TimeInterval = 20 * 365 * 86_400, intermediateValidity: TimeInterval = 10 * 365 * 86_400,
            signingValidity: TimeInterval = 5 * 365 * 86_400,
            intermediateMarkers: [String] = ["1.2.840.113635.100.6.2.1"],
            signingMarkers: [String] = ["1.2.840.113635.100.6.11.1"]
        ) {
            self.organization = organization
            self.keyKind = keyKind
            self.rootValidity = rootValidity
            self.intermediateValidity = intermediateValidity
            self.signingValidity = signingValidity
            self.intermediateMarkers = intermediateMarkers
            self.signingMarkers = signingMarkers
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
        /// The signing certificate, PEM.
        public static let signing = "signing.pem"
        /// The signing private key, PEM, mode 0600.
        public static let signingKey = "signing-key.pem"

        static let all = [root, rootKey, intermediate, intermediateKey, signing, signingKey]
    }

    /// The self-signed root.
    public let root: X509Certificate
    /// The intermediate, issued by the root.
    public let intermediate: X509Certificate
    /// The certificate that signs receipts and transactions, issued by the intermediate.
    public let signingCertificate: X509Certificate
    /// The signing certificate's private key.
    public let signingKey: PrivateKey

    /// The chain as receipts and `x5c` carry it: signing certificate, intermediate, root.
    public var chain: [X509Certificate] { [signingCertificate, intermediate, root] }

    /// Makes a new chain in memory.
    /// - Parameters:
    ///   - configuration: key type, names and validity.
    ///   - now: the start of every validity period.
    /// - Throws: `CryptoError` if OpenSSL cannot make a key or certificate.
    public static func create(configuration: Configuration = Configuration(), now: Date) throws(CryptoError) -> Keys {
        let rootKey = try PrivateKey.generate(configuration.keyKind)
        let intermediateKey = try PrivateKey.generate(configuration.keyKind)
        let signingKey = try PrivateKey.generate(configuration.keyKind)
        let random: [UInt8]
        do { random = try SecureRandom.bytes(count: 7) } catch { throw CryptoError("RAND_bytes") }
        let serialBase = random.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let organization = configuration.organization
        let root = try CertificateIssuer.issue(
            commonName: "\(organization) Root CA", organization: organization, subjectKey: rootKey, issuer: nil,
            issuerKey: rootKey, serial: serialBase, notBefore: now, notAfter: now + configuration.rootValidity,
            role: .authority(pathLength: 1))
        let intermediate = try CertificateIssuer.issue(
            commonName: "\(organization) Intermediate CA", organization: organization, subjectKey: intermediateKey,
            issuer: root, issuerKey: rootKey, serial: serialBase + 1, notBefore: now,
            notAfter: now + configuration.intermediateValidity, role: .authority(pathLength: 0),
            markerExtensions: configuration.intermediateMarkers)
        let signing = try CertificateIssuer.issue(
            commonName: "\(organization) Signing", organization: organization, subjectKey: signingKey,
            issuer: intermediate, issuerKey: intermediateKey, serial: serialBase + 2, notBefore: now,
            notAfter: now + configuration.signingValidity, role: .signing, markerExtensions: configuration.signingMarkers)
        return Keys(
            authority: CertificateAuthority(root: root, intermediate: intermediate, signingCertificate: signing, signingKey: signingKey),
            rootKey: rootKey, intermediateKey: intermediateKey)
    }

    /// A new chain with the issuing keys of its two CA levels, for persisting.
    public struct Keys: Sendable {
        /// The chain and its signing key.
        public let authority: CertificateAuthority
        /// The root's key.
        public let rootKey: PrivateKey
        /// The intermediate's key.
        public let intermediateKey: PrivateKey
    }

    /// Loads the chain kept in `directory`, or makes one there on first use.
    /// - Parameters:
    ///   - directory: where the PEM files live; created (mode 0700) when missing.
    ///   - configuration: used only when the chain is made.
    ///   - now: the start of a new chain's validity.
    ///   - fileManager: the file system.
    /// - Throws: `CryptoError` naming the file when a file is unreadable or only some files exist
    ///   (nothing is overwritten), or when writing fails.
    public static func loadOrCreate(
        in directory: URL, configuration: Configuration = Configuration(), now: Date,
        fileManager: FileManager = .default
    ) throws -> CertificateAuthority {
        let present = FileName.all.filter { fileManager.fileExists(atPath: directory.appendingPathComponent($0).path) }
        if present.count == FileName.all.count { return try load(from: directory) }
        if !present.isEmpty {
            let missing = FileName.all.filter { !present.contains($0) }
            throw CryptoError(
                "loading certificate authority in \(directory.path)",
                reason: "found \(present.joined(separator: ", ")) but not \(missing.joined(separator: ", ")); "
                    + "restore the missing files or remove the directory to make a new chain")
        }
        // The chain is written into a private sibling directory and renamed into place in one
        // step, so two processes making it at once never mix their files: the loser loads the
        // winner's chain.
        let parent = directory.deletingLastPathComponent()
        try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(".\(directory.lastPathComponent).\(UUID().uuidString).tmp")
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? fileManager.removeItem(at: staging) }
        let authority = try write(configuration: configuration, now: now, into: staging, fileManager: fileManager)
        if (try? fileManager.contentsOfDirectory(atPath: directory.path))?.isEmpty == true {
            try? fileManager.removeItem(at: directory)  // an empty directory someone made for us
        }
        do {
            try fileManager.moveItem(at: staging, to: directory)
            return authority
        } catch {
            guard FileName.all.allSatisfy({ fileManager.fileExists(atPath: directory.appendingPathComponent($0).path) }) else {
                throw CryptoError("creating certificate authority in \(directory.path)", reason: "\(error.localizedDescription)")
            }
            return try load(from: directory)
        }
    }

    private static func write(
        configuration: Configuration, now: Date, into directory: URL, fileManager: FileManager
    ) throws -> CertificateAuthority {
        let keys = try create(configuration: configuration, now: now)
        let authority = keys.authority
        let files: [(String, String, Int)] = [
            (FileName.rootKey, try keys.rootKey.pemRepresentation(), 0o600),
            (FileName.intermediateKey, try keys.intermediateKey.pemRepresentation(), 0o600),
            (FileName.signingKey, try authority.signingKey.pemRepresentation(), 0o600),
            (FileName.root, authority.root.pemRepresentation, 0o644),
            (FileName.intermediate, authority.intermediate.pemRepresentation, 0o644),
            (FileName.signing, authority.signingCertificate.pemRepresentation, 0o644),
        ]
        for (name, text, mode) in files {
            let url = directory.appendingPathComponent(name)
            guard fileManager.createFile(atPath: url.path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]) else {
                throw CryptoError("writing \(url.path)", reason: "could not create the file")
            }
        }
        return authority
    }

    /// Loads a chain kept by `loadOrCreate`.
    /// - Throws: `CryptoError` naming the file that is missing or unreadable, or when the
    ///   signing key does not belong to the signing certificate.
    public static func load(from directory: URL) throws -> CertificateAuthority {
        func text(_ name: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            do {
                return try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw CryptoError("reading \(url.path)", reason: "\(error.localizedDescription)")
            }
        }
        func certificate(_ name: String) throws -> X509Certificate {
            do { return try X509Certificate(pem: try text(name)) } catch let error as CryptoError {
                throw CryptoError("reading \(directory.appendingPathComponent(name).path)", reason: error.reason)
            }
        }
        let root = try certificate(FileName.root)
        let intermediate = try certificate(FileName.intermediate)
        let signing = try certificate(FileName.signing)
        let key: PrivateKey
        do { key = try PrivateKey(pem: try text(FileName.signingKey)) } catch let error as CryptoError {
            throw CryptoError("reading \(directory.appendingPathComponent(FileName.signingKey).path)", reason: error.reason)
        }
        let probe = Array("storefront key check".utf8)
        guard try signing.verifySHA256(signature: key.signSHA256(probe), message: probe) else {
            throw CryptoError(
                "loading certificate authority in \(directory.path)",
                reason: "\(FileName.signingKey) does not belong to \(FileName.signing)")
        }
        return CertificateAuthority(root: root, intermediate: intermediate, signingCertificate: signing, signingKey: key)
    }

    /// Writes the root certificate as DER (a `.cer` file a server can trust).
    /// - Throws: the file system's error.
    public func exportRoot(to url: URL) throws {
        try Data(root.derRepresentation).write(to: url, options: .atomic)
    }
}
