import Foundation
import SystemIO

/// The chain on disk. A directory holds the root and every key, made once and never rewritten,
/// and the certificates below the root for the OCSP URL it was made with. Pieces a newer
/// version needs (the RSA receipt signer, certificates naming another OCSP URL) are added
/// beside them: certificates for another URL go to `issued/ocsp-HASH/`, made in a staging
/// directory and renamed into place, so concurrent processes agree on one set. Every file goes
/// through SystemIO's `FileSystem` (synced, and the directories that name them), so the
/// recording file layer and the fault injection see them and a power loss leaves no empty key.
extension CertificateAuthority {
    /// Loads the chain kept in `directory`, or makes one there on first use, with the
    /// certificates for `configuration.ocspURL` (issued for the existing keys when missing).
    ///
    /// The root's and the intermediate's keys are read only when a certificate must be issued:
    /// they sign nothing else (`load(from:)` reads them for OCSP).
    /// - Parameters:
    ///   - directory: where the PEM files live; created (mode 0700) when missing.
    ///   - configuration: how a new chain, and certificates added later, are made.
    ///   - now: the start of new certificates' validity.
    ///   - fileSystem: the file system (the real one by default).
    /// - Throws: `CryptoError` naming the file when a file is unreadable or only some of the
    ///   chain's files exist (nothing is overwritten), or when writing fails.
    public static func loadOrCreate(
        in directory: URL, configuration: Configuration = Configuration(), now: Date,
        fileSystem: any FileSystem = POSIXFileSystem()
    ) throws -> CertificateAuthority {
        let present = FileName.all.filter { fileSystem.exists(directory.appendingPathComponent($0).path) }
        if present.isEmpty {
            try create(in: directory, configuration: configuration, now: now, fileSystem: fileSystem)
        } else if present.count != FileName.all.count {
            let missing = FileName.all.filter { !present.contains($0) }
            throw CryptoError(
                "loading certificate authority in \(directory.path)",
                reason: "found \(present.joined(separator: ", ")) but not \(missing.joined(separator: ", ")); "
                    + "restore the missing files or remove the directory to make a new chain")
        }
        let base = try BaseFiles(directory: directory, fileSystem: fileSystem)
        // The receipt signer is made when asked for (RSA keys are slow to make), else loaded
        // when the directory has one and the caller reads it.
        let receiptKey =
            try configuration.receiptKeyKind.map {
                try addedKey(FileName.receiptSigningKey, in: directory, kind: $0, fileSystem: fileSystem)
            }
            ?? (configuration.readsReceiptSigner
                ? optionalKey(FileName.receiptSigningKey, in: directory, fileSystem: fileSystem) : nil)
        let folder =
            base.signing.ocspResponderURLs.first == configuration.ocspURL
            ? directory
            : try issuedSet(
                base: base, receiptKey: receiptKey, configuration: configuration, now: now, fileSystem: fileSystem)
        // The base set's certificates are read once: each parse is an OpenSSL public-key decode.
        let baseSet = folder == directory
        let intermediate =
            baseSet
            ? base.intermediate
            : try certificate(FileName.intermediate, in: folder, parsedOnUse: true, fileSystem: fileSystem)
        let receipt = try receiptKey.map {
            try addedReceiptCertificate(
                in: folder, key: $0, intermediate: intermediate, base: base, configuration: configuration, now: now,
                fileSystem: fileSystem)
        }
        return try CertificateAuthority(
            root: base.root, intermediate: intermediate,
            signingCertificate: baseSet
                ? base.signing : certificate(FileName.signing, in: folder, parsedOnUse: true, fileSystem: fileSystem),
            signingKey: base.signingKey, receiptSigningCertificate: receipt, receiptSigningKey: receiptKey
        ).checked(in: folder)
    }

    /// Loads the chain kept by `loadOrCreate` with the certificates it was first made with (and
    /// its receipt signer, when it has one), and its issuing keys.
    /// - Throws: `CryptoError` naming the file that is missing or unreadable, or when a key
    ///   does not belong to its certificate.
    public static func load(
        from directory: URL, fileSystem: any FileSystem = POSIXFileSystem()
    ) throws -> Keys {
        let base = try BaseFiles(directory: directory, fileSystem: fileSystem)
        let receiptKey = try optionalKey(FileName.receiptSigningKey, in: directory, fileSystem: fileSystem)
        let authority = try CertificateAuthority(
            root: base.root, intermediate: base.intermediate, signingCertificate: base.signing,
            signingKey: base.signingKey,
            receiptSigningCertificate: receiptKey == nil
                ? nil : try certificate(FileName.receiptSigning, in: directory, fileSystem: fileSystem),
            receiptSigningKey: receiptKey
        ).checked(in: directory)
        let issuing = try base.issuingKeys(fileSystem: fileSystem)
        return Keys(authority: authority, rootKey: issuing.root, intermediateKey: issuing.intermediate)
    }

    /// Every certificate the chain in `directory` has issued below its root, in every set:
    /// intermediates (issued by the root) and signers (issued by the intermediate).
    /// - Throws: `CryptoError` naming an unreadable file.
    public static func issuedCertificates(
        in directory: URL, fileSystem: any FileSystem = POSIXFileSystem()
    ) throws
        -> (intermediates: [X509Certificate], signers: [X509Certificate])
    {
        var folders = [directory]
        let issued = directory.appendingPathComponent(FileName.issued)
        let sets = (try? fileSystem.contentsOfDirectory(issued.path))?.filter { !$0.hasPrefix(".") }.sorted() ?? []
        folders += sets.map { issued.appendingPathComponent($0) }
        var intermediates: [X509Certificate] = []
        var signers: [X509Certificate] = []
        for folder in folders {
            func optional(_ name: String) throws -> X509Certificate? {
                fileSystem.exists(folder.appendingPathComponent(name).path)
                    ? try certificate(name, in: folder, fileSystem: fileSystem) : nil
            }
            if let intermediate = try optional(FileName.intermediate) { intermediates.append(intermediate) }
            signers += try [optional(FileName.signing), optional(FileName.receiptSigning)].compactMap { $0 }
        }
        return (intermediates, signers)
    }

    // MARK: - Making

    /// Makes a whole new chain in a private sibling directory and renames it into place in one
    /// step, so two processes making it at once never mix their files: the loser uses the winner's.
    private static func create(
        in directory: URL, configuration: Configuration, now: Date, fileSystem: any FileSystem
    ) throws {
        let keys = try CertificateAuthority.create(configuration: configuration, now: now)
        let authority = keys.authority
        var files: [(String, String, Int)] = [
            (FileName.rootKey, try keys.rootKey.pemRepresentation(), 0o600),
            (FileName.intermediateKey, try keys.intermediateKey.pemRepresentation(), 0o600),
            (FileName.signingKey, try authority.signingKey.pemRepresentation(), 0o600),
            (FileName.root, authority.root.pemRepresentation, 0o644),
            (FileName.intermediate, authority.intermediate.pemRepresentation, 0o644),
            (FileName.signing, authority.signingCertificate.pemRepresentation, 0o644),
        ]
        if let key = authority.receiptSigningKey, let certificate = authority.receiptSigningCertificate {
            files += [
                (FileName.receiptSigningKey, try key.pemRepresentation(), 0o600),
                (FileName.receiptSigning, certificate.pemRepresentation, 0o644),
            ]
        }
        try placeDirectory(at: directory, fileSystem: fileSystem) { staging in
            for (name, text, mode) in files {
                try write(text, to: staging.appendingPathComponent(name), mode: mode, fileSystem: fileSystem)
            }
        }
    }

    /// Writes a directory's files into a staging sibling, syncs them, and renames it to
    /// `directory` (then syncs the parent); when another process placed it first, theirs stays.
    private static func placeDirectory(at directory: URL, fileSystem: any FileSystem, fill: (URL) throws -> Void) throws
    {
        let parent = directory.deletingLastPathComponent()
        try fileSystem.createDirectories(parent.path, mode: 0o700, enforcingMode: true)
        let staging = parent.appendingPathComponent(".\(directory.lastPathComponent).\(UUID().uuidString).tmp")
        try fileSystem.makeDirectory(staging.path, mode: 0o700)
        defer { try? fileSystem.removeTree(staging.path) }
        try fill(staging)
        try fileSystem.synchronizeDirectory(staging.path)
        if (try? fileSystem.contentsOfDirectory(directory.path))?.isEmpty == true {
            try? fileSystem.removeDirectory(directory.path)  // an empty directory someone made for us
        }
        do {
            try fileSystem.rename(staging.path, to: directory.path)
        } catch {
            guard fileSystem.exists(directory.path) else {
                throw CryptoError("creating \(directory.path)", reason: "\(error)")
            }
        }
        try fileSystem.synchronizeDirectory(parent.path)
    }

    /// The key file `name`, generated when missing. It is written beside its final name and
    /// hard-linked into place (a link never replaces a file), so the first writer wins and
    /// every process reads that one.
    private static func addedKey(
        _ name: String, in directory: URL, kind: PrivateKey.Kind, fileSystem: any FileSystem
    ) throws -> PrivateKey {
        let url = directory.appendingPathComponent(name)
        if !fileSystem.exists(url.path) {
            try link(try PrivateKey.generate(kind).pemRepresentation(), to: url, mode: 0o600, fileSystem: fileSystem)
        }
        return try key(name, in: directory, fileSystem: fileSystem)
    }

    /// The receipt signing certificate of the set in `folder`, issued for `key` under the set's
    /// intermediate when missing (a chain made before receipts were signed with RSA, or before
    /// the first receipt) and hard-linked into place.
    private static func addedReceiptCertificate(
        in folder: URL, key: PrivateKey, intermediate: X509Certificate, base: BaseFiles,
        configuration: Configuration, now: Date, fileSystem: any FileSystem
    ) throws -> X509Certificate {
        let url = folder.appendingPathComponent(FileName.receiptSigning)
        if !fileSystem.exists(url.path) {
            let certificate = try issueReceiptSigner(
                key: key, intermediate: intermediate,
                intermediateKey: try base.issuingKeys(fileSystem: fileSystem).intermediate,
                configuration: configuration, now: now)
            try link(certificate.pemRepresentation, to: url, mode: 0o644, fileSystem: fileSystem)
        }
        return try certificate(FileName.receiptSigning, in: folder, fileSystem: fileSystem)
    }

    /// The folder of the certificates for another OCSP URL than the base ones name,
    /// `issued/ocsp-HASH/`: issued there for the existing keys when missing.
    private static func issuedSet(
        base: BaseFiles, receiptKey: PrivateKey?, configuration: Configuration, now: Date, fileSystem: any FileSystem
    ) throws -> URL {
        let name =
            try configuration.ocspURL.map { "ocsp-" + (try Digest.hash(.sha256, Array($0.utf8)).hexString.prefix(16)) }
            ?? "no-ocsp"
        let folder = base.directory.appendingPathComponent(FileName.issued).appendingPathComponent(name)
        let names = [FileName.intermediate, FileName.signing]
        guard !names.allSatisfy({ fileSystem.exists(folder.appendingPathComponent($0).path) }) else { return folder }
        let issuing = try base.issuingKeys(fileSystem: fileSystem)
        let made = try issueBelowRoot(
            root: base.root, rootKey: issuing.root, intermediateKey: issuing.intermediate, signingKey: base.signingKey,
            receiptKey: receiptKey, configuration: configuration, now: now)
        try fileSystem.createDirectories(folder.deletingLastPathComponent().path, mode: 0o700, enforcingMode: true)
        try placeDirectory(at: folder, fileSystem: fileSystem) { staging in
            var files = [(FileName.intermediate, made.intermediate), (FileName.signing, made.signingCertificate)]
            if let receipt = made.receiptSigningCertificate { files.append((FileName.receiptSigning, receipt)) }
            for (name, certificate) in files {
                try write(
                    certificate.pemRepresentation, to: staging.appendingPathComponent(name), mode: 0o644,
                    fileSystem: fileSystem)
            }
            try write(
                (configuration.ocspURL ?? "") + "\n", to: staging.appendingPathComponent("ocsp-url"), mode: 0o644,
                fileSystem: fileSystem)
        }
        return folder
    }

    // MARK: - Files

    /// The files every chain has, read and checked, but the two keys that only issue.
    private struct BaseFiles {
        let directory: URL
        let root: X509Certificate
        let intermediate: X509Certificate
        let signing: X509Certificate
        let signingKey: PrivateKey

        init(directory: URL, fileSystem: any FileSystem) throws {
            self.directory = directory
            root = try certificate(FileName.root, in: directory, parsedOnUse: true, fileSystem: fileSystem)
            intermediate = try certificate(
                FileName.intermediate, in: directory, parsedOnUse: true, fileSystem: fileSystem)
            signing = try certificate(FileName.signing, in: directory, parsedOnUse: true, fileSystem: fileSystem)
            signingKey = try key(FileName.signingKey, in: directory, fileSystem: fileSystem)
        }

        /// The root's and the intermediate's keys, read when the chain issues a certificate or
        /// answers OCSP (each is parsed by OpenSSL, which a command that only signs need not pay).
        /// - Throws: `CryptoError` naming a key file that is unreadable or not its certificate's.
        func issuingKeys(fileSystem: any FileSystem) throws -> (root: PrivateKey, intermediate: PrivateKey) {
            let intermediateKey = try key(FileName.intermediateKey, in: directory, fileSystem: fileSystem)
            try check(intermediate, intermediateKey, FileName.intermediateKey, FileName.intermediate, in: directory)
            let rootKey = try key(FileName.rootKey, in: directory, fileSystem: fileSystem)
            try check(root, rootKey, FileName.rootKey, FileName.root, in: directory)
            return (rootKey, intermediateKey)
        }
    }

    /// Checks that each signer's private key belongs to its certificate.
    /// - Throws: `CryptoError` naming the key file that does not.
    private func checked(in directory: URL) throws -> CertificateAuthority {
        try Self.check(signingCertificate, signingKey, FileName.signingKey, FileName.signing, in: directory)
        if let receiptSigningCertificate, let receiptSigningKey {
            try Self.check(
                receiptSigningCertificate, receiptSigningKey, FileName.receiptSigningKey, FileName.receiptSigning,
                in: directory)
        }
        return self
    }

    /// Checks that `key` belongs to `certificate`.
    /// - Throws: `CryptoError` naming the key file when it does not.
    private static func check(
        _ certificate: X509Certificate, _ key: PrivateKey, _ keyName: String, _ certificateName: String,
        in directory: URL
    ) throws {
        guard certificate.certifies(key) else {
            throw CryptoError(
                "loading certificate authority in \(directory.path)",
                reason: "\(keyName) does not belong to \(certificateName)")
        }
    }

    private static func text(_ name: String, in directory: URL, fileSystem: any FileSystem) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let bytes: [UInt8]?
        do {
            bytes = try fileSystem.readFile(path)
        } catch {
            throw CryptoError("reading \(path)", reason: "\(error.operation) failed: \(error.errno)")
        }
        guard let bytes else { throw CryptoError("reading \(path)", reason: "no such file") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The certificate file `name`; with `parsedOnUse`, kept as its DER until something asks
    /// OpenSSL about it (the root and the intermediate: a chain that signs only sends them; the
    /// JWS signer: its OCSP URL and its key's check are read from its DER).
    private static func certificate(
        _ name: String, in directory: URL, parsedOnUse: Bool = false, fileSystem: any FileSystem
    ) throws -> X509Certificate {
        do {
            let pem = try text(name, in: directory, fileSystem: fileSystem)
            return try parsedOnUse ? X509Certificate(pemParsedOnUse: pem) : X509Certificate(pem: pem)
        } catch let error as CryptoError {
            throw CryptoError("reading \(directory.appendingPathComponent(name).path)", reason: error.reason)
        }
    }

    private static func optionalKey(_ name: String, in directory: URL, fileSystem: any FileSystem) throws -> PrivateKey?
    {
        fileSystem.exists(directory.appendingPathComponent(name).path)
            ? try key(name, in: directory, fileSystem: fileSystem) : nil
    }

    private static func key(_ name: String, in directory: URL, fileSystem: any FileSystem) throws -> PrivateKey {
        do { return try PrivateKey(pem: try text(name, in: directory, fileSystem: fileSystem)) } catch let error
            as CryptoError
        {
            throw CryptoError("reading \(directory.appendingPathComponent(name).path)", reason: error.reason)
        }
    }

    /// Writes a new file of a staging directory with exactly `mode`, synced.
    private static func write(_ text: String, to url: URL, mode: Int, fileSystem: any FileSystem) throws {
        do {
            let file = try fileSystem.openReplacement(url.path, mode: UInt32(mode))
            defer { fileSystem.close(file) }
            try fileSystem.write(file, Array(text.utf8)[...], at: 0)
            try fileSystem.synchronize(file, .all)
        } catch {
            throw CryptoError("writing \(url.path)", reason: "\(error.operation) failed: \(error.errno)")
        }
    }

    /// Writes `text` beside `url` and hard-links it to `url` unless another process was first
    /// (SystemIO's `createOnce`: synced, so a power loss leaves the whole file or none).
    private static func link(_ text: String, to url: URL, mode: Int, fileSystem: any FileSystem) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try fileSystem.createOnce(
                url.path, with: Array(text.utf8), temporaryPath: temporary.path, mode: UInt32(mode))
        } catch {
            throw CryptoError("writing \(url.path)", reason: "\(error.operation) failed: \(error.errno)")
        }
    }
}
