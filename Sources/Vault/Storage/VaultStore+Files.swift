import Crypto
import SystemIO

/// Creating the vault file, replacing it atomically, and wrapping and unwrapping its data key.
extension VaultStore {
    /// Writes a new empty vault atomically: header to a temporary file, sync, rename, sync
    /// the directory. Called with the lock held.
    static func create(path: String, key: VaultKey, configuration: VaultConfiguration, files: FileGuard) throws {
        let dataKey = try SecureBytes.random(count: 32)
        var header = VaultHeader(
            fileID: try SecureRandom.bytes(count: 16), cipher: configuration.cipher, keyKind: .keyFile,
            scrypt: .init(log2N: 0, r: 0, p: 0, maxMemory: 0), salt: [UInt8](repeating: 0, count: 32),
            wrapNonce: [], wrappedKey: [])
        try wrap(dataKey, into: &header, key: key, configuration: configuration, files: files, path: path)
        let created = try replace(
            path: path, with: header.encoded(), files: files, configuration: configuration, fault: nil)
        configuration.fileSystem.close(created)
    }

    /// Writes `bytes` to the temporary file, syncs it, renames it over `path` and syncs the
    /// directory; returns the open file now at `path`.
    @discardableResult
    static func replace(
        path: String, with bytes: [UInt8], files: FileGuard, configuration: VaultConfiguration, fault: VaultFaultPoint?
    ) throws -> OpenFile {
        let fs = configuration.fileSystem
        let temporary = try files.createTemporary(path + ".tmp")
        do {
            try fs.write(temporary, bytes, at: 0)
        } catch {
            fs.close(temporary)
            try? fs.removeFile(temporary.path)
            throw VaultError.notDurable(path: temporary.path, operation: error.operation, errno: error.code)
        }
        do {
            try fs.commitReplacement(temporary, over: path, fileSync: .data) {
                if let fault { configuration.faultHook?(fault) }
            }
        } catch {
            fs.close(temporary)
            switch error.operation {
            case "rename": throw VaultError.io(path: path, operation: error.operation, errno: error.code)
            default: throw VaultError.notDurable(path: error.path, operation: error.operation, errno: error.code)
            }
        }
        return temporary
    }

    // MARK: - Keys

    /// Fills the key slot of `header` with `dataKey` wrapped under the key-encryption key.
    static func wrap(
        _ dataKey: SecureBytes, into header: inout VaultHeader, key: VaultKey,
        configuration: VaultConfiguration, files: FileGuard, path: String
    ) throws {
        let kek: SecureBytes
        switch key {
        case .keyFile(let url):
            header.keyKind = .keyFile
            header.scrypt = .init(log2N: 0, r: 0, p: 0, maxMemory: 0)
            header.salt = [UInt8](repeating: 0, count: 32)
            kek = try KeyFile.load(url.path, files: files) ?? KeyFile.create(url.path, files: files)
        case .passphrase, .askPassphrase:
            let passphrase: SecureBytes
            if case .passphrase(let p) = key {
                passphrase = p
            } else if case .askPassphrase(let prompt) = key {
                passphrase = try prompt.passphrase(message: "New passphrase for \(path): ")
            } else {
                passphrase = SecureBytes([UInt8]())
            }
            header.keyKind = .passphrase
            header.scrypt = configuration.newScryptParameters
            header.salt = try SecureRandom.bytes(count: 32)
            do { try Scrypt.validate(header.scrypt, limits: configuration.scryptLimits) } catch {
                throw VaultError.kdfParametersRejected(path: path, detail: error.description)
            }
            kek = try Scrypt.derive(
                password: passphrase, salt: header.salt, parameters: header.scrypt,
                limits: configuration.scryptLimits, count: 32)
        }
        header.wrapNonce = try SecureRandom.bytes(count: AEAD.nonceByteCount)
        header.wrappedKey = try dataKey.withUnsafeBytes {
            try AEAD.seal(
                header.cipher, key: kek, nonce: header.wrapNonce, plaintext: $0,
                associatedData: header.wrapAssociatedData())
        }
    }

    /// Recovers the data key from the header's key slot. KDF parameters are checked against
    /// the configured limits before anything is derived or asked for.
    static func unwrap(
        _ header: VaultHeader, key: VaultKey, configuration: VaultConfiguration, files: FileGuard, path: String
    ) throws -> SecureBytes {
        let kek: SecureBytes
        switch (header.keyKind, key) {
        case (.keyFile, .keyFile(let url)):
            guard let loaded = try KeyFile.load(url.path, files: files) else {
                throw VaultError.keyFileMissing(path: url.path, vault: path)
            }
            kek = loaded
        case (.keyFile, _):
            throw VaultError.keyKindMismatch(
                path: path, needs: "a key file, not a passphrase (unset STOREFRONT_PASSPHRASE)")
        case (.passphrase, .keyFile):
            throw VaultError.keyKindMismatch(
                path: path, needs: "a passphrase (set STOREFRONT_PASSPHRASE or run on a terminal)")
        case (.passphrase, .passphrase), (.passphrase, .askPassphrase):
            do { try Scrypt.validate(header.scrypt, limits: configuration.scryptLimits) } catch {
                throw VaultError.kdfParametersRejected(path: path, detail: error.description)
            }
            let passphrase: SecureBytes
            switch key {
            case .passphrase(let p): passphrase = p
            case .askPassphrase(let prompt): passphrase = try prompt.passphrase(message: "Passphrase for \(path): ")
            case .keyFile: passphrase = SecureBytes([UInt8]())
            }
            kek = try Scrypt.derive(
                password: passphrase, salt: header.salt, parameters: header.scrypt,
                limits: configuration.scryptLimits, count: 32)
        }
        let opened = try AEAD.open(
            header.cipher, key: kek, nonce: header.wrapNonce, sealed: header.wrappedKey,
            associatedData: header.wrapAssociatedData())
        guard var opened else { throw VaultError.authenticationFailed(path: path) }
        defer { for i in opened.indices { opened[i] = 0 } }
        return SecureBytes(opened)
    }
}
