#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The real file system through POSIX calls, so `fsync`, `rename` and `errno` are exact.
public struct POSIXFileSystem: DownloadFileSystem {
    /// Creates the file system.
    public init() {}

    private func failure(_ path: String, _ code: Int32 = errno) -> FileSystemError {
        FileSystemError(path: path, code: code, message: String(cString: strerror(code)))
    }

    public func createDirectory(_ path: String) throws(FileSystemError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw failure(path, ENOTDIR)
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createDirectory(parent) }
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw failure(path) }
    }

    public func open(_ path: String) throws(FileSystemError) -> OpenFile {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path) }
        return OpenFile(path: path, handle: fd)
    }

    public func length(_ file: OpenFile) throws(FileSystemError) -> Int64 {
        var info = stat()
        guard fstat(file.handle, &info) == 0 else { throw failure(file.path) }
        return Int64(info.st_size)
    }

    public func truncate(_ file: OpenFile, to length: Int64) throws(FileSystemError) {
        guard ftruncate(file.handle, off_t(length)) == 0 else { throw failure(file.path) }
        guard lseek(file.handle, off_t(length), SEEK_SET) >= 0 else { throw failure(file.path) }
    }

    public func write(_ file: OpenFile, _ bytes: [UInt8]) throws(FileSystemError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.write(file.handle, raw.baseAddress.map { $0 + done }, raw.count - done)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(file.path)
            }
            if n == 0 { throw failure(file.path, EIO) }
            done += n
        }
    }

    public func read(_ file: OpenFile, at offset: Int64, count: Int) throws(FileSystemError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(file.handle, raw.baseAddress.map { $0 + done }, count - done, off_t(offset + Int64(done)))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(file.path)
            }
            if n == 0 { break }
            done += n
        }
        if done < count { buffer.removeSubrange(done...) }
        return buffer
    }

    public func sync(_ file: OpenFile) throws(FileSystemError) {
        guard fsync(file.handle) == 0 else { throw failure(file.path) }
    }

    public func close(_ file: OpenFile) { _ = Glibc.close(file.handle) }

    public func writeAtomically(_ path: String, _ bytes: [UInt8], syncsDirectory: Bool) throws(FileSystemError) {
        let temporary = path + ".tmp"
        let file = try open(temporary)
        do {
            try truncate(file, to: 0)
            try write(file, bytes)
            try sync(file)
        } catch {
            close(file)
            throw error
        }
        close(file)
        try rename(temporary, to: path)
        if syncsDirectory { try syncDirectory((path as NSString).deletingLastPathComponent) }
    }

    public func readSmallFile(_ path: String) throws(FileSystemError) -> [UInt8]? {
        guard exists(path) else { return nil }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path) }
        let file = OpenFile(path: path, handle: fd)
        defer { close(file) }
        let size = try length(file)
        guard size <= 64 << 20 else { throw failure(path, EFBIG) }
        return try read(file, at: 0, count: Int(size))
    }

    public func rename(_ from: String, to: String) throws(FileSystemError) {
        guard Glibc.rename(from, to) == 0 else { throw failure(to) }
    }

    public func syncDirectory(_ path: String) throws(FileSystemError) {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path) }
        defer { _ = Glibc.close(fd) }
        guard fsync(fd) == 0 else { throw failure(path) }
    }

    public func remove(_ path: String) throws(FileSystemError) {
        guard exists(path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw failure(path, (error as NSError).code == 0 ? EIO : EACCES)
        }
    }

    public func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    public func contents(ofDirectory path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    public func tryLock(_ path: String) throws(FileSystemError) -> OpenFile? {
        let file = try open(path)
        if flock(file.handle, LOCK_EX | LOCK_NB) == 0 { return file }
        let code = errno
        close(file)
        if code == EWOULDBLOCK { return nil }
        throw failure(path, code)
    }

    public func unlock(_ file: OpenFile) {
        _ = flock(file.handle, LOCK_UN)
        close(file)
    }

    public func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }
}
