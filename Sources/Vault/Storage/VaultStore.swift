import Crypto
import SystemIO

/// The vault file engine: the header, the key, the append-only log of sealed records and
/// the in-memory index rebuilt from it. Not thread-safe; `Vault` keeps it behind one lock.
final class VaultStore {
    let path: String
    let directory: String
    let configuration: VaultConfiguration
    private let files: FileGuard
    private var fs: any FileSystem { configuration.fileSystem }
    private let lockFile: OpenFile
    private var file: OpenFile
    private var identity: (device: UInt64, inode: UInt64)
    private var header: VaultHeader
    private let dataKey: SecureBytes
    private var codec: RecordCodec
    private var log: LogState
    private var failure: String?

    var items: [VaultItem.ID: VaultItem] { log.items }

    /// One item, read without copying the index (a copy held across a write would make the
    /// next insertion copy the whole dictionary).
    func item(_ id: VaultItem.ID) -> VaultItem? { log.items[id] }
    var recordCount: Int { log.recordCount }

    private var temporaryPath: String { path + ".tmp" }

    // MARK: - Opening

    /// Opens (creating if needed) the vault at `path`. Every fallible step runs before the
    /// object exists, so a failure closes each descriptor exactly once.
    init(path: String, key: VaultKey, configuration: VaultConfiguration) throws {
        let fs = configuration.fileSystem
        let files = FileGuard(fs: fs)
        let directory = FileGuard.parent(of: path)
        try files.ensureDirectory(directory)
        let lockFile = try files.openOrCreate(path + ".lock")
        var file: OpenFile?
        let opened: (OpenFile, FileStatus, VaultHeader, SecureBytes, RecordCodec, LogState)
        do {
            if try fs.status(atPath: path, followingLinks: false) == nil {
                try Self.withLock(lockFile, fs, path) {
                    if try fs.status(atPath: path, followingLinks: false) == nil {
                        try Self.create(path: path, key: key, configuration: configuration, files: files)
                    }
                }
            }
            let existing = try files.openExisting(path)
            file = existing
            let status = try files.status(existing)
            let bytes = try Self.readAll(existing, size: status.size, fs: fs, path: path)
            let (header, length) = try VaultHeader.parse(bytes[...], path: path)
            let dataKey = try Self.unwrap(header, key: key, configuration: configuration, files: files, path: path)
            let codec = try RecordCodec(cipher: header.cipher, fileID: header.fileID, dataKey: dataKey)
            var log = LogState(headerEnd: UInt64(length), codec: codec)
            try log.consume(bytes[length...], at: UInt64(length), codec: codec, path: path)
            opened = (existing, status, header, dataKey, codec, log)
        } catch {
            if let file { fs.close(file) }
            fs.close(lockFile)
            if let error = error as? SystemCallError {
                throw VaultError.io(path: path, operation: error.operation, errno: error.code)
            }
            throw error
        }
        self.path = path
        self.directory = directory
        self.configuration = configuration
        self.files = files
        self.lockFile = lockFile
        self.file = opened.0
        (identity, header, dataKey, codec, log) = ((opened.1.device, opened.1.inode), opened.2, opened.3, opened.4, opened.5)
    }

    deinit {
        fs.close(file)
        fs.close(lockFile)
    }

    private static func readAll(_ file: OpenFile, size: UInt64, fs: any FileSystem, path: String) throws -> [UInt8] {
        guard size <= UInt64(Int.max) else {
            throw VaultError.integrity(path: path, offset: 0, detail: "the file is too large to be a vault")
        }
        return try fs.read(file, count: Int(size), at: 0)
    }

    /// Writes a new empty vault atomically: header to a temporary file, sync, rename, sync
    /// the directory. Called with the lock held.
    private static func create(path: String, key: VaultKey, configuration: VaultConfiguration, files: FileGuard) throws {
        let dataKey = try SecureBytes.random(count: 32)
        var header = VaultHeader(
            fileID: try SecureRandom.bytes(count: 16), cipher: configuration.cipher, keyKind: .keyFile,
            scrypt: .init(log2N: 0, r: 0, p: 0, maxMemory: 0), salt: [UInt8](repeating: 0, count: 32),
            wrapNonce: [], wrappedKey: [])
        try wrap(dataKey, into: &header, key: key, configuration: configuration, files: files, path: path)
        let created = try replace(path: path, with: header.encoded(), files: files, configuration: configuration, fault: nil)
        configuration.fileSystem.close(created)
    }

    /// Writes `bytes` to the temporary file, syncs it, renames it over `path` and syncs the
    /// directory; returns the open file now at `path`.
    @discardableResult
    private static func replace(
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
    private static func wrap(
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
            if case .passphrase(let p) = key { passphrase = p } else if case .askPassphrase(let prompt) = key {
                passphrase = try prompt.passphrase(message: "New passphrase for \(path): ")
            } else { passphrase = SecureBytes([UInt8]()) }
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
            try AEAD.seal(header.cipher, key: kek, nonce: header.wrapNonce, plaintext: $0, associatedData: header.wrapAssociatedData())
        }
    }

    /// Recovers the data key from the header's key slot. KDF parameters are checked against
    /// the configured limits before anything is derived or asked for.
    private static func unwrap(
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
            throw VaultError.keyKindMismatch(path: path, needs: "a key file, not a passphrase (unset STOREFRONT_PASSPHRASE)")
        case (.passphrase, .keyFile):
            throw VaultError.keyKindMismatch(path: path, needs: "a passphrase (set STOREFRONT_PASSPHRASE or run on a terminal)")
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

    // MARK: - Reading the log

    /// Catches up with what other processes wrote: the new tail of the same file, or the
    /// whole file when it was replaced (compaction, key change). With `forWriting` (lock
    /// held) a torn tail is cut off so the next record follows the last good one.
    func refresh(forWriting: Bool) throws {
        if let failure { throw VaultError.handleUnusable(path: path, cause: failure) }
        let current: FileStatus?
        do { current = try fs.status(atPath: path, followingLinks: false) } catch {
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        }
        guard let current else { throw VaultError.io(path: path, operation: "lstat (the vault was removed)", errno: Errno.noSuchFile.rawValue) }
        if current.isSymbolicLink { throw VaultError.symbolicLink(path: path) }
        if (current.device, current.inode) != identity {
            try reload()
        } else {
            let size = try files.status(file).size
            if size < log.validEnd {
                throw VaultError.integrity(path: path, offset: size, detail: "the file shrank below its last verified record")
            }
            if size > log.validEnd {
                let tail: [UInt8]
                do { tail = try fs.read(file, count: Int(size - log.validEnd), at: log.validEnd) } catch {
                    throw VaultError.io(path: path, operation: error.operation, errno: error.code)
                }
                try log.consume(tail[...], at: log.validEnd, codec: codec, path: path)
            }
        }
        if forWriting {
            let size = try files.status(file).size
            if size > log.validEnd {
                do {
                    try fs.truncate(file, to: log.validEnd)
                    try fs.synchronize(file, .data)
                } catch {
                    throw VaultError.notDurable(path: path, operation: error.operation, errno: error.code)
                }
            }
        }
    }

    /// Re-reads a file that replaced ours. The data key is the same (it never changes), so
    /// a replacement that is not this vault fails authentication like any other damage.
    private func reload() throws {
        let newFile = try files.openExisting(path)
        do {
            let status = try files.status(newFile)
            let bytes = try Self.readAll(newFile, size: status.size, fs: fs, path: path)
            let (newHeader, length) = try VaultHeader.parse(bytes[...], path: path)
            let newCodec = try RecordCodec(cipher: newHeader.cipher, fileID: newHeader.fileID, dataKey: dataKey)
            var newLog = LogState(headerEnd: UInt64(length), codec: newCodec)
            try newLog.consume(bytes[length...], at: UInt64(length), codec: newCodec, path: path)
            fs.close(file)
            codec = newCodec
            log = newLog
            file = newFile
            header = newHeader
            identity = (status.device, status.inode)
        } catch let error as SystemCallError {
            fs.close(newFile)
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        } catch {
            fs.close(newFile)
            throw error
        }
    }

    // MARK: - Writing

    /// Runs `body` holding the cross-process lock.
    func withLock<R>(_ body: () throws -> R) throws -> R {
        try Self.withLock(lockFile, fs, path, body)
    }

    private static func withLock<R>(_ lockFile: OpenFile, _ fs: any FileSystem, _ path: String, _ body: () throws -> R) throws -> R {
        do { _ = try fs.lock(lockFile, waiting: true) } catch {
            throw VaultError.io(path: path + ".lock", operation: error.operation, errno: error.code)
        }
        defer { fs.unlock(lockFile) }
        return try body()
    }

    /// Whether enough superseded records piled up to make compaction worth its O(items) cost.
    var needsCompaction: Bool {
        let garbage = log.recordCount - log.items.count
        return garbage > max(log.items.count, configuration.compactionMinimumGarbage)
    }

    /// Appends records (one `pwrite`) and makes them durable (one `fdatasync`); memory is
    /// updated only after the sync succeeded. Call with the lock held, after `refresh`.
    func append(_ payloads: [RecordPayload]) throws {
        if let failure { throw VaultError.handleUnusable(path: path, cause: failure) }
        guard !payloads.isEmpty else { return }
        var sealed: [(payload: RecordPayload, chain: [UInt8], length: Int)] = []
        var bytes: [UInt8] = []
        var chain = log.chain
        for (index, payload) in payloads.enumerated() {
            let (frame, newChain) = try codec.seal(payload, sequence: log.nextSequence + UInt64(index), chain: chain)
            bytes += frame
            chain = newChain
            sealed.append((payload, newChain, frame.count))
        }
        let validEnd = log.validEnd
        do {
            if let hook = configuration.faultHook {
                let half = bytes.count / 2
                try fs.write(file, bytes[..<half], at: validEnd)
                hook(.midVaultWrite)
                try fs.write(file, bytes[half...], at: validEnd + UInt64(half))
            } else {
                try fs.write(file, bytes[...], at: validEnd)
            }
            try fs.synchronize(file, .data)
        } catch {
            // The records may or may not be on disk; they were not acknowledged. Cut them off
            // (best effort) and stop this handle: a retried fsync could report a success
            // that never reached the disk.
            try? fs.truncate(file, to: validEnd)
            failure = "\(error.operation) failed with errno \(error.code)"
            throw VaultError.notDurable(path: path, operation: error.operation, errno: error.code)
        }
        for record in sealed { log.apply(record.payload, chain: record.chain, length: record.length) }
    }

    /// Rewrites the live items into a new file with a new file id (fresh record key), then
    /// renames it over the vault. Call with the lock held, after `refresh`.
    func compact() throws {
        if let failure { throw VaultError.handleUnusable(path: path, cause: failure) }
        var newHeader = header
        newHeader.fileID = try SecureRandom.bytes(count: 16)
        let newCodec = try RecordCodec(cipher: newHeader.cipher, fileID: newHeader.fileID, dataKey: dataKey)
        var bytes = newHeader.encoded()
        var newLog = LogState(headerEnd: UInt64(bytes.count), codec: newCodec)
        for id in log.items.keys.sorted() {
            guard let item = log.items[id] else { continue }
            let sealed = try newCodec.seal(.put(item), sequence: newLog.nextSequence, chain: newLog.chain)
            bytes += sealed.frame
            newLog.apply(.put(item), chain: sealed.chain, length: sealed.frame.count)
        }
        let newFile = try Self.replace(path: path, with: bytes, files: files, configuration: configuration, fault: .midCompaction)
        adopt(newFile)
        header = newHeader
        codec = newCodec
        log = newLog
    }

    /// Re-wraps the data key for `key` and rewrites the header; the records are copied byte
    /// for byte. Call with the lock held, after `refresh`.
    func changeKey(to key: VaultKey) throws {
        if let failure { throw VaultError.handleUnusable(path: path, cause: failure) }
        var newHeader = header
        try Self.wrap(dataKey, into: &newHeader, key: key, configuration: configuration, files: files, path: path)
        let headerLength = UInt64(VaultFormat.headerLength)
        let records: [UInt8]
        do { records = try fs.read(file, count: Int(log.validEnd - headerLength), at: headerLength) } catch {
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        }
        let newFile = try Self.replace(
            path: path, with: newHeader.encoded() + records, files: files, configuration: configuration, fault: .midKeyChange)
        adopt(newFile)
        header = newHeader
    }

    /// Switches to the file just renamed into place. If its identity cannot be read, the next
    /// `refresh` sees a mismatch and re-reads the file from the path.
    private func adopt(_ newFile: OpenFile) {
        fs.close(file)
        file = newFile
        identity = (try? fs.status(of: newFile)).map { ($0.device, $0.inode) } ?? (0, 0)
    }

    /// The file's size as this handle last verified it.
    var verifiedSize: UInt64 { log.validEnd }
}
