import Crypto
import SystemIO

/// The key file: `SFVKEY\0\x01` and 32 random bytes, mode 0600.
enum KeyFile {
    /// Reads the key; `nil` if the file does not exist.
    static func load(_ path: String, files: FileGuard) throws(VaultError) -> SecureBytes? {
        do {
            guard try files.fs.status(atPath: path, followingLinks: false) != nil else { return nil }
        } catch {
            throw .io(path: path, operation: error.operation, errno: error.code)
        }
        let file = try files.openExisting(path)
        defer { files.fs.close(file) }
        let size = try files.status(file).size
        guard size == UInt64(VaultFormat.keyFileLength) else {
            throw .keyFileInvalid(path: path, detail: "it is \(size) bytes; a key file is \(VaultFormat.keyFileLength)")
        }
        var bytes: [UInt8]
        do { bytes = try files.fs.read(file, count: VaultFormat.keyFileLength, at: 0) } catch {
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
        let temporary = try files.createTemporary(path + ".tmp")
        defer { files.fs.close(temporary) }
        var bytes = VaultFormat.keyFileMagic + key.copiedBytes
        defer { for i in bytes.indices { bytes[i] = 0 } }
        do {
            try files.fs.write(temporary, bytes, at: 0)
        } catch {
            try? files.fs.removeFile(temporary.path)
            throw VaultError.notDurable(path: temporary.path, operation: error.operation, errno: error.code)
        }
        do {
            try files.fs.commitReplacement(temporary, over: path, fileSync: .data)
        } catch {
            switch error.operation {
            case "fdatasync":
                throw VaultError.notDurable(path: temporary.path, operation: error.operation, errno: error.code)
            case "rename": throw VaultError.io(path: path, operation: error.operation, errno: error.code)
            default: throw VaultError.notDurable(path: path, operation: error.operation, errno: error.code)
            }
        }
        return key
    }
}
