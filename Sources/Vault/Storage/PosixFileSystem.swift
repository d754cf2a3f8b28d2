import Glibc

/// The real file system, through POSIX calls. Every libc call of the vault lives here.
public struct PosixFileSystem: VaultFileSystem {
    /// Creates the real file system.
    public init() {}

    public func open(_ path: String, flags: Int32, mode: UInt32) throws(SystemCallError) -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC | O_NOFOLLOW, mode_t(mode))
            if fd >= 0 { return fd }
            if errno != EINTR { throw SystemCallError("open", code: errno) }
        }
    }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }

    public func status(_ fd: Int32) throws(SystemCallError) -> FileStatus {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SystemCallError("fstat", code: errno) }
        return Self.convert(st)
    }

    public func linkStatus(_ path: String) throws(SystemCallError) -> FileStatus? {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return nil }
            throw SystemCallError("lstat", code: errno)
        }
        return Self.convert(st)
    }

    public func read(_ fd: Int32, count: Int, at offset: UInt64) throws(SystemCallError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(fd, base + done, count - done, off_t(offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("pread", code: errno)
            }
            if n == 0 { break }
            done += n
        }
        if done < count { out.removeLast(count - done) }
        return out
    }

    public func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>, at offset: UInt64) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pwrite(fd, base + done, bytes.count - done, off_t(offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("pwrite", code: errno)
            }
            if n == 0 { throw SystemCallError("pwrite", code: EIO) }
            done += n
        }
    }

    public func sync(_ fd: Int32) throws(SystemCallError) {
        // No retry on failure: after a failed fsync the kernel may have dropped the dirty
        // pages, so a second fsync could "succeed" without the data ever reaching the disk.
        guard fdatasync(fd) == 0 else { throw SystemCallError("fdatasync", code: errno) }
    }

    public func syncDirectory(_ path: String) throws(SystemCallError) {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError("open directory", code: errno) }
        defer { _ = Glibc.close(fd) }
        guard fsync(fd) == 0 else { throw SystemCallError("fsync directory", code: errno) }
    }

    public func truncate(_ fd: Int32, to length: UInt64) throws(SystemCallError) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw SystemCallError("ftruncate", code: errno) }
    }

    public func setMode(_ fd: Int32, _ mode: UInt32) throws(SystemCallError) {
        guard fchmod(fd, mode_t(mode)) == 0 else { throw SystemCallError("fchmod", code: errno) }
    }

    public func rename(_ from: String, to: String) throws(SystemCallError) {
        guard Glibc.rename(from, to) == 0 else { throw SystemCallError("rename", code: errno) }
    }

    public func remove(_ path: String) throws(SystemCallError) {
        guard unlink(path) == 0 else { throw SystemCallError("unlink", code: errno) }
    }

    public func makeDirectory(_ path: String, mode: UInt32) throws(SystemCallError) {
        guard mkdir(path, mode_t(mode)) == 0 else { throw SystemCallError("mkdir", code: errno) }
        guard chmod(path, mode_t(mode)) == 0 else { throw SystemCallError("chmod", code: errno) }
    }

    public func lockExclusive(_ fd: Int32) throws(SystemCallError) {
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR { throw SystemCallError("flock", code: errno) }
        }
    }

    public func unlock(_ fd: Int32) { _ = flock(fd, LOCK_UN) }

    public func currentUser() -> UInt32 { geteuid() }

    private static func convert(_ st: stat) -> FileStatus {
        FileStatus(
            device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: UInt64(max(st.st_size, 0)),
            mode: UInt32(st.st_mode), owner: UInt32(st.st_uid))
    }
}
