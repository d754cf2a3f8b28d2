#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Every libc call of the local App Store, in one place: file descriptors, `flock`, `fsync`,
/// `rename`. Each call translates `errno` into a `PlatformError` naming the path.
enum Platform {
    /// A failed system call: which one, on which path, and `strerror(errno)`.
    struct PlatformError: Error, CustomStringConvertible {
        let call: String
        let path: String
        let code: Int32
        var reason: String { String(cString: strerror(code)) }
        var description: String { "\(path): \(call) failed: \(reason)" }
    }

    // MARK: - Opening and closing

    /// Opens `path` for reading and writing, creating it with `mode` when missing.
    static func openReadWrite(_ path: String, mode: mode_t = 0o600, append: Bool = false) throws(PlatformError) -> Int32 {
        var flags = O_RDWR | O_CREAT | O_CLOEXEC
        if append { flags |= O_APPEND }
        let fd = open(path, flags, mode)
        guard fd >= 0 else { throw PlatformError(call: "open", path: path, code: errno) }
        return fd
    }

    /// Opens an existing file for reading; `nil` when it does not exist.
    static func openReadOnly(_ path: String) throws(PlatformError) -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw PlatformError(call: "open", path: path, code: errno)
        }
        return fd
    }

    /// Closes a descriptor, ignoring errors (there is nothing left to do about them).
    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    // MARK: - Locks

    /// Takes an exclusive `flock`, waiting for other holders (other processes or descriptors).
    static func lockExclusive(_ fd: Int32, path: String) throws(PlatformError) {
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw PlatformError(call: "flock", path: path, code: errno)
        }
    }

    /// Tries an exclusive `flock` without waiting; `false` when someone else holds it.
    static func tryLockExclusive(_ fd: Int32, path: String) throws(PlatformError) -> Bool {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw PlatformError(call: "flock", path: path, code: errno)
        }
        return true
    }

    /// Releases a `flock`.
    static func unlock(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
    }

    // MARK: - Reading and writing

    /// The size and inode of an open file.
    static func identity(_ fd: Int32, path: String) throws(PlatformError) -> (size: Int64, inode: UInt64) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw PlatformError(call: "fstat", path: path, code: errno) }
        return (Int64(info.st_size), UInt64(info.st_ino))
    }

    /// The inode `path` names now; `nil` when it does not exist.
    static func inode(atPath path: String) throws(PlatformError) -> UInt64? {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT { return nil }
            throw PlatformError(call: "stat", path: path, code: errno)
        }
        return UInt64(info.st_ino)
    }

    /// Reads the bytes of `fd` from `offset` to its end.
    static func readToEnd(_ fd: Int32, from offset: Int64, path: String) throws(PlatformError) -> [UInt8] {
        var result: [UInt8] = []
        var position = offset
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(position)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PlatformError(call: "pread", path: path, code: errno)
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
            position += Int64(count)
        }
    }

    /// Writes all of `bytes` (a descriptor opened with `O_APPEND` appends them at the end).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(PlatformError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                write(fd, raw.baseAddress.map { $0 + written }, raw.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw PlatformError(call: "write", path: path, code: errno)
            }
            written += count
        }
    }

    /// Cuts a file to `length` bytes.
    static func truncate(_ fd: Int32, to length: Int64, path: String) throws(PlatformError) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw PlatformError(call: "ftruncate", path: path, code: errno) }
    }

    /// Makes the file's data durable.
    static func sync(_ fd: Int32, path: String) throws(PlatformError) {
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            throw PlatformError(call: "fsync", path: path, code: errno)
        }
    }

    /// Makes a directory's entries (a rename, a new file) durable.
    static func syncDirectory(_ path: String) throws(PlatformError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw PlatformError(call: "open", path: path, code: errno) }
        defer { _ = close(fd) }
        try sync(fd, path: path)
    }

    // MARK: - Directory entries

    /// Renames `from` over `to` atomically.
    static func renameItem(_ from: String, _ to: String) throws(PlatformError) {
        guard rename(from, to) == 0 else { throw PlatformError(call: "rename", path: to, code: errno) }
    }

    /// Removes a file; a missing file is not an error.
    static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// Creates a directory (and its parents) and sets `mode` on it, even if it existed.
    static func makeDirectory(_ path: String, mode: mode_t) throws(PlatformError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, mode) != 0 && errno != EEXIST {
                throw PlatformError(call: "mkdir", path: prefix, code: errno)
            }
            prefix += "/"
        }
        guard chmod(path, mode) == 0 else { throw PlatformError(call: "chmod", path: path, code: errno) }
    }
}
