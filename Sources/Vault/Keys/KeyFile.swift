import Crypto
import Glibc

/// The key file: `SFVKEY\0\x01` and 32 random bytes, mode 0600.
enum KeyFile {
    /// Reads the key; `nil` if the file does not exist.
    static func load(_ path: String, files: FileGuard) throws(VaultError) -> SecureBytes? {
        do {
            guard try files.fs.linkStatus(path) != nil else { return nil }
        } catch {
            throw .io(path: path, operation: error.operation, errno: error.code)
        }
        let fd = try files.openExisting(path)
        defer { files.fs.close(fd) }
        let size = try files.status(fd, path).size
        guard size == UInt64(VaultFormat.keyFileLength) else {
            throw .keyFileInvalid(path: path, detail: "it is \(size) bytes; a key file is \(VaultFormat.keyFileLength)")
        }
        var bytes: [UInt8]
        do { bytes = try files.fs.read(fd, count: VaultFormat.keyFileLength, at: 0) } catch {
            throw .io(path: path, operation: error.operation, errno: error.code)
        }
        defer { for i in bytes.indices { bytes[i] = 0 } }
        guard bytes.count == VaultFormat.keyFileLength, Array(bytes.prefix(8)) == VaultFormat.keyFileMagic else {
            throw .keyFileInvalid(path: path, detail: "bad magic")
        }
        return SecureBytes(bytes[8...])
    }

    /// Creates a new random key file atomically (write a temporary, sync, rename, sync the
    /// directory). Call with the vault's lock held.
    static func create(_ path: String, files: FileGuard) throws -> SecureBytes {
        let key = try SecureBytes.random(count: 32)
        let temporary = path + ".tmp"
        let fd = try files.createTemporary(temporary)
        var ok = false
        defer {
            files.fs.close(fd)
            if !ok { try? files.fs.remove(temporary) }
        }
        var bytes = VaultFormat.keyFileMagic + key.copiedBytes
        defer { for i in bytes.indices { bytes[i] = 0 } }
        do {
            try files.fs.write(fd, bytes[...], at: 0)
            try files.fs.sync(fd)
        } catch {
            throw VaultError.notDurable(path: temporary, operation: error.operation, errno: error.code)
        }
        do { try files.fs.rename(temporary, to: path) } catch {
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        }
        ok = true
        do { try files.fs.syncDirectory(FileGuard.parent(of: path)) } catch {
            throw VaultError.notDurable(path: path, operation: error.operation, errno: error.code)
        }
        return key
    }
}
