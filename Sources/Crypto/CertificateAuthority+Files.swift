import Foundation

/// The chain on disk. A directory holds the root and every key, made once and never rewritten,
/// and the certificates below the root for the OCSP URL it was made with. Pieces a newer
/// version needs (the RSA receipt signer, certificates naming another OCSP URL) are added
/// beside them: certificates for another URL go to `issued/ocsp-HASH/`, made in a staging
/// directory and renamed into place, so concurrent processes agree on one set.
extension CertificateAuthority {
    /// Loads the chain kept in `directory`, or makes one there on first use, with the
    /// certificates for `configuration.ocspURL` (issued for the existing keys when missing).
    /// - Parameters:
    ///   - directory: where the PEM files live; created (mode 0700) when missing.
    ///   - configuration: how a new chain, and certificates added later, are made.
    ///   - now: the start of new certificates' validity.
    ///   - fileManager: the file system.
    /// - Throws: `CryptoError` naming the file when a file is unreadable or only some of the
    ///   chain's files exist (nothing is overwritten), or when writing fails.
    public static func loadOrCreate(
        in directory: URL, configuration: Configuration = Configuration(), now: Date,
        fileManager: FileManager = .default
    ) throws -> CertificateAuthority {
        let present = FileName.all.filter { fileManager.fileExists(atPath: directory.appendingPathComponent($0).path) }
        if present.isEmpty {
            try create(in: directory, configuration: configuration, now: now, fileManager: fileManager)
        } else if present.count != FileName.all.count {
            let missing = FileName.all.filter { !present.contains($0) }
            throw CryptoError(
                "loading certificate authority in \(directory.path)",
                reason: "found \(present.joined(separator: ", ")) but not \(missing.joined(separator: ", ")); "
                    + "restore the missing files or remove the directory to make a new chain")
        }
        let base = try BaseFiles(directory: directory)
        // The receipt signer is made when asked for (RSA keys are slow to make), else loaded
        // when the directory has one.
        let receiptKey = try configuration.receiptKeyKind.map {
            try addedKey(FileName.receiptSigningKey, in: directory, kind: $0, fileManager: fileManager)
        } ?? optionalKey(FileName.receiptSigningKey, in: directory, fileManager: fileManager)
        let folder = base.signing.ocspResponderURLs.first == configuration.ocspURL
            ? directory
            : try issuedSet(base: base, receiptKey: receiptKey, configuration: configuration, now: now, fileManager: fileManager)
        let intermediate = try certificate(FileName.intermediate, in: folder)
        let receipt = try receiptKey.map {
            try addedReceiptCertificate(
                in: folder, key: $0, intermediate: intermediate, intermediateKey: base.intermediateKey,
                configuration: configuration, now: now, fileManager: fileManager)
        }
        return try CertificateAuthority(
            root: base.root, intermediate: intermediate, signingCertificate: certificate(FileName.signing, in: folder),
            signingKey: base.signingKey, receiptSigningCertificate: receipt, receiptSigningKey: receiptKey,
            rootKey: base.rootKey, intermediateKey: base.intermediateKey
        ).checked(in: folder)
    }

    /// Loads the chain kept by `loadOrCreate` with the certificates it was first made with (and
    /// its receipt signer, when it has one).
    /// - Throws: `CryptoError` naming the file that is missing or unreadable, or when a key
    ///   does not belong to its certificate.
    public static func load(from directory: URL, fileManager: FileManager = .default) throws -> CertificateAuthority {
        let base = try BaseFiles(directory: directory)
        let receiptKey = try optionalKey(FileName.receiptSigningKey, in: directory, fileManager: fileManager)
        return try CertificateAuthority(
            root: base.root, intermediate: base.intermediate, signingCertificate: base.signing, signingKey: base.signingKey,
            receiptSigningCertificate: receiptKey == nil ? nil : try certificate(FileName.receiptSigning, in: directory),
            receiptSigningKey: receiptKey, rootKey: base.rootKey, intermediateKey: base.intermediateKey
        ).checked(in: directory)
    }

    /// Every certificate the chain in `directory` has issued below its root, in every set:
    /// intermediates (issued by the root) and signers (issued by the intermediate).
    /// - Throws: `CryptoError` naming an unreadable file.
    public static func issuedCertificates(in directory: URL, fileManager: FileManager = .default) throws
        -> (intermediates: [X509Certificate], signers: [X509Certificate])
    {
        var folders = [directory]
        let issued = directory.appendingPathComponent(FileName.issued)
        let sets = (try? fileManager.contentsOfDirectory(atPath: issued.path))?.filter { !$0.hasPrefix(".") }.sorted() ?? []
        folders += sets.map { issued.appendingPathComponent($0) }
        var intermediates: [X509Certificate] = []
        var signers: [X509Certificate] = []
        for folder in folders {
            func optional(_ name: String) throws -> X509Certificate? {
                fileManager.fileExists(atPath: folder.appendingPathComponent(name).path) ? try certificate(name, in: folder) : nil
            }
            if let intermediate = try optional(FileName.intermediate) { intermediates.append(intermediate) }
            signers += try [optional(FileName.signing), optional(FileName.receiptSigning)].compactMap { $0 }
        }
        return (intermediates, signers)
    }

    // MARK: - Making

    /// Makes a whole new chain in a private sibling directory and renames it into place in one
    /// step, so two processes making it at once never mix their files: the loser uses the winner's.
    private static func create(in directory: URL, configuration: Configuration, now: Date, fileManager: FileManager) throws {
        let keys = try CertificateAuthority.create(configuration: configuration, now: now)
        let authority = keys.authority
        var files: [(String, String, Int)] = [
            (FileName.rootKey, try authority.rootKey.pemRepresentation(), 0o600),
            (FileName.intermediateKey, try authority.intermediateKey.pemRepresentation(), 0o600),
            (FileName.signingKey, try authority.signingKey.pemRepresentation(), 0o600),
            (FileName.root, authority.root.pemRepresentation, 0o644),
            (FileName.intermediate, authority.intermediate.pemRepresentation, 0o644),
            (FileName.signing, authority.signingCertificate.pemRepresentation, 0o644),
        ]
        if let key = authority.receiptSigningKey, let certificate = authority.receiptSigningCertificate {
            files += [(FileName.receiptSigningKey, try key.pemRepresentation(), 0o600), (FileName.receiptSigning, certificate.pemRepresentation, 0o644)]
        }
        try placeDirectory(at: directory, fileManager: fileManager) { staging in
            for (name, text, mode) in files { try write(text, to: staging.appendingPathComponent(name), mode: mode, fileManager: fileManager) }
        }
    }

    /// Writes a directory's files into a staging sibling and renames it to `directory`; when
    /// another process placed it first, theirs stays.
    private static func placeDirectory(at directory: URL, fileManager: FileManager, fill: (URL) throws -> Void) throws {
        let parent = directory.deletingLastPathComponent()
        try fileManager.createDirectory(at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let staging = parent.appendingPathComponent(".\(directory.lastPathComponent).\(UUID().uuidString).tmp")
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? fileManager.removeItem(at: staging) }
        try fill(staging)
        if (try? fileManager.contentsOfDirectory(atPath: directory.path))?.isEmpty == true {
            try? fileManager.removeItem(at: directory)  // an empty directory someone made for us
        }
        do {
            try fileManager.moveItem(at: staging, to: directory)
        } catch {
            guard fileManager.fileExists(atPath: directory.path) else {
                throw CryptoError("creating \(directory.path)", reason: "\(error.localizedDescription)")
            }
        }
    }

    /// The key file `name`, generated when missing. It is written beside its final name and
    /// hard-linked into place (a link never replaces a file), so the first writer wins and
    /// every process reads that one.
    private static func addedKey(_ name: String, in directory: URL, kind: PrivateKey.Kind, fileManager: FileManager) throws -> PrivateKey {
        let url = directory.appendingPathComponent(name)
        if !fileManager.fileExists(atPath: url.path) {
            try link(try PrivateKey.generate(kind).pemRepresentation(), to: url, mode: 0o600, fileManager: fileManager)
        }
        return try key(name, in: directory)
    }

    /// The receipt signing certificate of the set in `folder`, issued for `key` under the set's
    /// intermediate when missing (a chain made before receipts were signed with RSA, or before
    /// the first receipt) and hard-linked into place.
    private static func addedReceiptCertificate(
        in folder: URL, key: PrivateKey, intermediate: X509Certificate, intermediateKey: PrivateKey,
        configuration: Configuration, now: Date, fileManager: FileManager
    ) throws -> X509Certificate {
        let url = folder.appendingPathComponent(FileName.receiptSigning)
        if !fileManager.fileExists(atPath: url.path) {
            let certificate = try issueReceiptSigner(
                key: key, intermediate: intermediate, intermediateKey: intermediateKey, configuration: configuration, now: now)
            try link(certificate.pemRepresentation, to: url, mode: 0o644, fileManager: fileManager)
        }
        return try certificate(FileName.receiptSigning, in: folder)
    }

    /// The folder of the certificates for another OCSP URL than the base ones name,
    /// `issued/ocsp-HASH/`: issued there for the existing keys when missing.
    private static func issuedSet(
        base: BaseFiles, receiptKey: PrivateKey?, configuration: Configuration, now: Date, fileManager: FileManager
    ) throws -> URL {
        let name = try configuration.ocspURL.map { "ocsp-" + (try Digest.hash(.sha256, Array($0.utf8)).hexString.prefix(16)) } ?? "no-ocsp"
        let folder = base.directory.appendingPathComponent(FileName.issued).appendingPathComponent(name)
        let names = [FileName.intermediate, FileName.signing]
        guard !names.allSatisfy({ fileManager.fileExists(atPath: folder.appendingPathComponent($0).path) }) else { return folder }
        let made = try issueBelowRoot(
            root: base.root, rootKey: base.rootKey, intermediateKey: base.intermediateKey, signingKey: base.signingKey,
            receiptKey: receiptKey, configuration: configuration, now: now)
        try fileManager.createDirectory(
            at: folder.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try placeDirectory(at: folder, fileManager: fileManager) { staging in
            var files = [(FileName.intermediate, made.intermediate), (FileName.signing, made.signingCertificate)]
            if let receipt = made.receiptSigningCertificate { files.append((FileName.receiptSigning, receipt)) }
            for (name, certificate) in files {
                try write(certificate.pemRepresentation, to: staging.appendingPathComponent(name), mode: 0o644, fileManager: fileManager)
            }
            try write((configuration.ocspURL ?? "") + "\n", to: staging.appendingPathComponent("ocsp-url"), mode: 0o644, fileManager: fileManager)
        }
        return folder
    }

    // MARK: - Files

    /// The files every chain has, read and checked.
    private struct BaseFiles {
        let directory: URL
        let root: X509Certificate
        let rootKey: PrivateKey
        let intermediate: X509Certificate
        let intermediateKey: PrivateKey
        let signing: X509Certificate
        let signingKey: PrivateKey

        init(directory: URL) throws {
            self.directory = directory
            root = try certificate(FileName.root, in: directory)
            rootKey = try key(FileName.rootKey, in: directory)
            intermediate = try certificate(FileName.intermediate, in: directory)
            intermediateKey = try key(FileName.intermediateKey, in: directory)
            signing = try certificate(FileName.signing, in: directory)
            signingKey = try key(FileName.signingKey, in: directory)
        }
    }

    /// Checks that each private key belongs to its certificate.
    /// - Throws: `CryptoError` naming the key file that does not.
    private func checked(in directory: URL) throws -> CertificateAuthority {
        let probe = Array("storefront key check".utf8)
        var pairs: [(X509Certificate, PrivateKey, String, String)] = [
            (signingCertificate, signingKey, FileName.signingKey, FileName.signing),
            (intermediate, intermediateKey, FileName.intermediateKey, FileName.intermediate),
            (root, rootKey, FileName.rootKey, FileName.root),
        ]
        if let receiptSigningCertificate, let receiptSigningKey {
            pairs.append((receiptSigningCertificate, receiptSigningKey, FileName.receiptSigningKey, FileName.receiptSigning))
        }
        for (certificate, key, keyName, certificateName) in pairs
        where try !certificate.verifySHA256(signature: key.signSHA256(probe), message: probe) {
            throw CryptoError(
                "loading certificate authority in \(directory.path)", reason: "\(keyName) does not belong to \(certificateName)")
        }
        return self
    }

    private static func text(_ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw CryptoError("reading \(url.path)", reason: "\(error.localizedDescription)")
        }
    }

    private static func certificate(_ name: String, in directory: URL) throws -> X509Certificate {
        do { return try X509Certificate(pem: try text(name, in: directory)) } catch let error as CryptoError {
            throw CryptoError("reading \(directory.appendingPathComponent(name).path)", reason: error.reason)
        }
    }

    private static func optionalKey(_ name: String, in directory: URL, fileManager: FileManager) throws -> PrivateKey? {
        fileManager.fileExists(atPath: directory.appendingPathComponent(name).path) ? try key(name, in: directory) : nil
    }

    private static func key(_ name: String, in directory: URL) throws -> PrivateKey {
        do { return try PrivateKey(pem: try text(name, in: directory)) } catch let error as CryptoError {
            throw CryptoError("reading \(directory.appendingPathComponent(name).path)", reason: error.reason)
        }
    }

    private static func write(_ text: String, to url: URL, mode: Int, fileManager: FileManager) throws {
        guard fileManager.createFile(atPath: url.path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]) else {
            throw CryptoError("writing \(url.path)", reason: "could not create the file")
        }
    }

    /// Writes `text` beside `url` and hard-links it to `url` unless another process was first.
    private static func link(_ text: String, to url: URL, mode: Int, fileManager: FileManager) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        try write(text, to: temporary, mode: mode, fileManager: fileManager)
        defer { try? fileManager.removeItem(at: temporary) }
        do {
            try fileManager.linkItem(at: temporary, to: url)
        } catch {
            guard fileManager.fileExists(atPath: url.path) else {
                throw CryptoError("writing \(url.path)", reason: "\(error.localizedDescription)")
            }
        }
    }
}
