import Crypto
import Glibc

/// The vault file engine: the header, the key, the append-only log of sealed records and
/// the in-memory index rebuilt from it. Not thread-safe; `Vault` keeps it behind one lock.
final class VaultStore {
    let path: String
    let directory: String
    let configuration: VaultConfiguration
    private let files: FileGuard
    private var fs: any VaultFileSystem { configuration.fileSystem }
    private let lockFD: Int32
    private var fd: Int32
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
        let lockFD = try files.openOrCreate(path + ".lock")
        var fd: Int32 = -1
        let opened: (FileStatus, VaultHeader, SecureBytes, RecordCodec, LogState)
        do {
            if try fs.linkStatus(path) == nil {
                try Self.withLock(lockFD, fs, path) {
                    if try fs.linkStatus(path) == nil {
                        try Self.create(path: path, key: key, configuration: configuration, files: files)
                    }
                }
            }
            fd = try files.openExisting(path)
            let status = try files.status(fd, path)
            let bytes = try Self.readAll(fd, size: status.size, fs: fs, path: path)
            let (header, length) = try VaultHeader.parse(bytes[...], path: path)
            let dataKey = try Self.unwrap(header, key: key, configuration: configuration, files: files, path: path)
            let codec = try RecordCodec(cipher: header.cipher, fileID: header.fileID, dataKey: dataKey)
            var log = LogState(headerEnd: UInt64(length), codec: codec)
            try log.consume(bytes[length...], at: UInt64(length), codec: codec, path: path)
            opened = (status, header, dataKey, codec, log)
        } catch {
            if fd >= 0 { fs.close(fd) }
            fs.close(lockFD)
            if let error = error as? SystemCallError {
                throw VaultError.io(path: path, operation: error.operation, errno: error.code)
            }
            throw error
        }
        self.path = path
        self.directory = directory
        self.configuration = configuration
        self.files = files
        self.lockFD = lockFD
        self.fd = fd
        (identity, header, dataKey, codec, log) = ((opened.0.device, opened.0.inode), opened.1, opened.2, opened.3, opened.4)
    }

    deinit {
        fs.close(fd)
        fs.close(lockFD)
    }

    private static func readAll(_ fd: Int32, size: UInt64, fs: any VaultFileSystem, path: String) throws -> [UInt8] {
        guard size <= UInt64(Int.max) else {
            throw VaultError.integrity(path: path, offset: 0, detail: "the file is too large to be a vault")
        }
        return try fs.read(fd, count: Int(size), at: 0)
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
        try replace(path: path, with: header.encoded(), files: files, configuration: configuration, fault: nil)
    }

    /// Writes `bytes` to the temporary file, syncs it, renames it over `path` and syncs the
    /// directory; returns the open descriptor of the new file.
    @discardableResult
    private static func replace(
        path: String, with bytes: [UInt8], files: FileGuard, configuration: VaultConfiguration, fault: VaultFaultPoint?
    ) throws -> Int32 {
        let fs = configuration.fileSystem
        let temporary = path + ".tmp"
        let fd = try files.createTemporary(temporary)
        do {
            do { try fs.write(fd, bytes[...], at: 0) } catch {
                throw VaultError.notDurable(path: temporary, operation: error.operation, errno: error.code)
            }
            do { try fs.sync(fd) } catch {
                throw VaultError.notDurable(path: temporary, operation: error.operation, errno: error.code)
            }
            if let fault { configuration.faultHook?(fault) }
            do { try fs.rename(temporary, to: path) } catch {
                throw VaultError.io(path: path, operation: error.operation, errno: error.code)
            }
        } catch {
            fs.close(fd)
            try? fs.remove(temporary)
            throw error
        }
        do { try fs.syncDirectory(FileGuard.parent(of: path)) } catch {
            fs.close(fd)
            throw VaultError.notDurable(path: FileGuard.parent(of: path), operation: error.operation, errno: error.code)
        }
        return fd
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
        do { current = try fs.linkStatus(path) } catch {
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        }
        guard let current else { throw VaultError.io(path: path, operation: "lstat (the vault was removed)", errno: ENOENT) }
        if current.isSymbolicLink { throw VaultError.symbolicLink(path: path) }
        if (current.device, current.inode) != identity {
            try reload()
        } else {
            let size = try files.status(fd, path).size
            if size < log.validEnd {
                throw VaultError.integrity(path: path, offset: size, detail: "the file shrank below its last verified record")
            }
            if size > log.validEnd {
                let tail: [UInt8]
                do { tail = try fs.read(fd, count: Int(size - log.validEnd), at: log.validEnd) } catch {
                    throw VaultError.io(path: path, operation: error.operation, errno: error.code)
                }
                try log.consume(tail[...], at: log.validEnd, codec: codec, path: path)
            }
        }
        if forWriting {
            let size = try files.status(fd, path).size
            if size > log.validEnd {
                do {
                    try fs.truncate(fd, to: log.validEnd)
                    try fs.sync(fd)
                } catch {
                    throw VaultError.notDurable(path: path, operation: error.operation, errno: error.code)
                }
            }
        }
    }

    /// Re-reads a file that replaced ours. The data key is the same (it never changes), so
    /// a replacement that is not this vault fails authentication like any other damage.
    private func reload() throws {
        let newFD = try files.openExisting(path)
        do {
            let status = try files.status(newFD, path)
            let bytes = try Self.readAll(newFD, size: status.size, fs: fs, path: path)
            let (newHeader, length) = try VaultHeader.parse(bytes[...], path: path)
            let newCodec = try RecordCodec(cipher: newHeader.cipher, fileID: newHeader.fileID, dataKey: dataKey)
            var newLog = LogState(headerEnd: UInt64(length), codec: newCodec)
            try newLog.consume(bytes[length...], at: UInt64(length), codec: newCodec, path: path)
            fs.close(fd)
            codec = newCodec
            log = newLog
            fd = newFD
            header = newHeader
            identity = (status.device, status.inode)
        } catch let error as SystemCallError {
            fs.close(newFD)
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        } catch {
            fs.close(newFD)
            throw error
        }
    }

    // MARK: - Writing

    /// Runs `body` holding the cross-process lock.
    func withLock<R>(_ body: () throws -> R) throws -> R {
        try Self.withLock(lockFD, fs, path, body)
    }

    private static func withLock<R>(_ lockFD: Int32, _ fs: any VaultFileSystem, _ path: String, _ body: () throws -> R) throws -> R {
        do { try fs.lockExclusive(lockFD) } catch {
            throw VaultError.io(path: path + ".lock", operation: error.operation, errno: error.code)
        }
        defer { fs.unlock(lockFD) }
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
                try fs.write(fd, bytes[..<half], at: validEnd)
                hook(.midVaultWrite)
                try fs.write(fd, bytes[half...], at: validEnd + UInt64(half))
            } else {
                try fs.write(fd, bytes[...], at: validEnd)
            }
            try fs.sync(fd)
        } catch {
            // The records may or may not be on disk; they were not acknowledged. Cut them off
            // (best effort) and stop this handle: a retried fsync could report a success
            // that never reached the disk.
            try? fs.truncate(fd, to: validEnd)
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
        let newFD = try Self.replace(path: path, with: bytes, files: files, configuration: configuration, fault: .midCompaction)
        adopt(newFD)
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
        do { records = try fs.read(fd, count: Int(log.validEnd - headerLength), at: headerLength) } catch {
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        }
        let newFD = try Self.replace(
            path: path, with: newHeader.encoded() + records, files: files, configuration: configuration, fault: .midKeyChange)
        adopt(newFD)
        header = newHeader
    }

    /// Switches to the file just renamed into place. If its identity cannot be read, the next
    /// `refresh` sees a mismatch and re-reads the file from the path.
    private func adopt(_ newFD: Int32) {
        fs.close(fd)
        fd = newFD
        identity = (try? fs.status(newFD)).map { ($0.device, $0.inode) } ?? (0, 0)
    }

    /// The file's size as this handle last verified it.
    var verifiedSize: UInt64 { log.validEnd }
}
