#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real file system, through POSIX calls: the package's only code that calls libc for
/// files and locks. Every call goes through `Syscall.retrying`, so `EINTR` is retried and any
/// other `errno` becomes a `SystemCallError` naming the call and the path.
public struct POSIXFileSystem: FileSystem {
    /// Creates the real file system.
    public init() {}

    // MARK: - Descriptors

    public func open(_ path: String, _ options: OpenOptions, mode: UInt32) throws(SystemCallError) -> OpenFile {
        let flags = Self.flags(options)
        let fd = try Syscall.retrying("open", path: path) { libcOpen(path, flags, mode_t(mode)) }
        return OpenFile(path: path, descriptor: fd)
    }

    public func close(_ file: OpenFile) {
        // Never retried: after EINTR the descriptor is closed already on Linux, and retrying
        // could close a descriptor another thread has just been given.
        _ = libcClose(file.descriptor)
    }

    public func status(of file: OpenFile) throws(SystemCallError) -> FileStatus {
        var info = stat()
        _ = try Syscall.retrying("fstat", path: file.path) { fstat(file.descriptor, &info) }
        return Self.status(info)
    }

    public func read(_ file: OpenFile, count: Int, at offset: UInt64) throws(SystemCallError) -> [UInt8] {
        // Read straight into the array's storage: no zero fill, no second copy.
        var failure: SystemCallError?
        let out = [UInt8](unsafeUninitializedCapacity: max(0, count)) { buffer, initialized in
            do throws(SystemCallError) {
                initialized = try read(file, into: UnsafeMutableRawBufferPointer(buffer), at: offset)
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return out
    }

    public func read(
        _ file: OpenFile, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
    ) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = try Syscall.retrying("pread", path: file.path) {
                pread(file.descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    public func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>, at offset: UInt64) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            let n = try Syscall.retrying("pwrite", path: file.path) {
                bytes.withUnsafeBytes { buffer -> Int in
                    pwrite(file.descriptor, buffer.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
                }
            }
            if n == 0 { throw SystemCallError("pwrite", path: file.path, errno: .ioError) }
            done += n
        }
    }

    public func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            let n = try Syscall.retrying("write", path: file.path) {
                bytes.withUnsafeBytes { buffer -> Int in
                    libcWrite(file.descriptor, buffer.baseAddress! + done, bytes.count - done)
                }
            }
            if n == 0 { throw SystemCallError("write", path: file.path, errno: .ioError) }
            done += n
        }
    }

    public func synchronize(_ file: OpenFile, _ scope: SyncScope) throws(SystemCallError) {
        switch scope {
        case .data: _ = try Syscall.retrying(scope.callName, path: file.path) { libcDataSync(file.descriptor) }
        case .all: _ = try Syscall.retrying(scope.callName, path: file.path) { fsync(file.descriptor) }
        }
    }

    public func truncate(_ file: OpenFile, to length: UInt64) throws(SystemCallError) {
        _ = try Syscall.retrying("ftruncate", path: file.path) { ftruncate(file.descriptor, off_t(length)) }
    }

    public func setPermissions(of file: OpenFile, to mode: UInt32) throws(SystemCallError) {
        _ = try Syscall.retrying("fchmod", path: file.path) { fchmod(file.descriptor, mode_t(mode)) }
    }

    public func lock(_ file: OpenFile, waiting: Bool) throws(SystemCallError) -> Bool {
        let operation = waiting ? LOCK_EX : LOCK_EX | LOCK_NB
        do {
            _ = try Syscall.retrying("flock", path: file.path) { flock(file.descriptor, operation) }
            return true
        } catch {
            if !waiting, error.errno == .wouldBlock { return false }
            throw error
        }
    }

    public func unlock(_ file: OpenFile) {
        _ = try? Syscall.retrying("flock", path: file.path) { flock(file.descriptor, LOCK_UN) }
    }

    // MARK: - Paths

    public func status(atPath path: String, followingLinks: Bool) throws(SystemCallError) -> FileStatus? {
        var info = stat()
        do {
            if followingLinks {
                _ = try Syscall.retrying("stat", path: path) { stat(path, &info) }
            } else {
                _ = try Syscall.retrying("lstat", path: path) { lstat(path, &info) }
            }
        } catch {
            if error.errno == .noSuchFile { return nil }
            throw error
        }
        return Self.status(info)
    }

    public func makeDirectory(_ path: String, mode: UInt32) throws(SystemCallError) {
        _ = try Syscall.retrying("mkdir", path: path) { mkdir(path, mode_t(mode)) }
    }

    public func setPermissions(atPath path: String, to mode: UInt32) throws(SystemCallError) {
        _ = try Syscall.retrying("chmod", path: path) { chmod(path, mode_t(mode)) }
    }

    public func checkWritable(_ path: String) throws(SystemCallError) {
        // A directory must be searchable too to change its names; a file only writable.
        let directory = (try? status(atPath: path, followingLinks: true))??.isDirectory ?? true
        _ = try Syscall.retrying("faccessat", path: path) {
            faccessat(AT_FDCWD, path, directory ? W_OK | X_OK : W_OK, AT_EACCESS)
        }
    }

    public func rename(_ source: String, to destination: String) throws(SystemCallError) {
        _ = try Syscall.retrying("rename", path: destination) { libcRename(source, destination) }
    }

    public func link(_ source: String, to destination: String) throws(SystemCallError) {
        _ = try Syscall.retrying("link", path: destination) { libcLink(source, destination) }
    }

    public func removeFile(_ path: String) throws(SystemCallError) {
        _ = try Syscall.retrying("unlink", path: path) { unlink(path) }
    }

    public func removeDirectory(_ path: String) throws(SystemCallError) {
        _ = try Syscall.retrying("rmdir", path: path) { rmdir(path) }
    }

    public func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
        guard let directory = opendir(path) else {
            throw SystemCallError("opendir", path: path, errno: .current)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0, errno != EINTR { throw SystemCallError("readdir", path: path, errno: .current) }
                break
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    public func synchronizeDirectory(_ path: String) throws(SystemCallError) {
        let fd = try Syscall.retrying("open", path: path) { libcOpen(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
        defer { _ = libcClose(fd) }
        _ = try Syscall.retrying("fsync", path: path) { fsync(fd) }
    }

    public func synchronizeAll() { sync() }

    // MARK: - Identity

    public func currentUser() -> UInt32 { UInt32(geteuid()) }

    // MARK: - Conversions

    private static func flags(_ options: OpenOptions) -> Int32 {
        var flags: Int32 = O_CLOEXEC
        switch (options.contains(.read), options.contains(.write)) {
        case (true, true): flags |= O_RDWR
        case (false, true): flags |= O_WRONLY
        default: flags |= O_RDONLY
        }
        if options.contains(.create) { flags |= O_CREAT }
        if options.contains(.truncate) { flags |= O_TRUNC }
        if options.contains(.append) { flags |= O_APPEND }
        if options.contains(.noFollow) { flags |= O_NOFOLLOW }
        if options.contains(.directory) { flags |= O_DIRECTORY }
        return flags
    }

    private static func status(_ info: stat) -> FileStatus {
        #if canImport(Darwin)
            let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        return FileStatus(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: UInt64(max(info.st_size, 0)), mode: UInt32(info.st_mode), owner: UInt32(info.st_uid),
            modified: nanoseconds(modified), changed: nanoseconds(changed))
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}

// libc functions whose names the file system's own methods shadow.
private func libcOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func libcClose(_ fd: Int32) -> Int32 { close(fd) }
private func libcWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func libcRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
private func libcLink(_ source: String, _ destination: String) -> Int32 { link(source, destination) }
private func libcDataSync(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
        fsync(fd)  // Darwin has no fdatasync; fsync makes at least as much durable.
    #else
        fdatasync(fd)
    #endif
}
