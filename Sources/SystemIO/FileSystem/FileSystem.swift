/// The file-system calls of the whole package, one requirement per system call, so a test can
/// make any one of them fail (`FaultInjectingFileSystem`) or record them all to replay the
/// states a crash can leave. `POSIXFileSystem` is the real one and every library's default.
///
/// Everything durable goes through a requirement: the composite operations (atomic replace,
/// recursive directories, locks on a path) are extension methods built only from these, so a
/// wrapper sees every write, sync, rename, unlink, truncate and directory sync they make.
///
/// Every requirement that can fail throws `SystemCallError` with the call's name, the path and
/// the `errno`; `EINTR` is retried inside and never reported.
public protocol FileSystem: Sendable {
    // MARK: - Descriptors

    /// `open(path, options | O_CLOEXEC, mode)`.
    /// - Parameters:
    ///   - path: the file.
    ///   - options: access, creation and link handling.
    ///   - mode: the permission bits of a created file (the umask still applies).
    /// - Returns: the open file; close it with `close`.
    func open(_ path: String, _ options: OpenOptions, mode: UInt32) throws(SystemCallError) -> OpenFile
    /// `close(fd)`; errors are ignored (the descriptor is gone either way).
    func close(_ file: OpenFile)
    /// `fstat(fd)`.
    func status(of file: OpenFile) throws(SystemCallError) -> FileStatus
    /// Reads up to `count` bytes at `offset` (`pread`, looped); fewer only at the end of the file.
    func read(_ file: OpenFile, count: Int, at offset: UInt64) throws(SystemCallError) -> [UInt8]
    /// Reads up to `buffer.count` bytes at `offset` into `buffer` (`pread`, looped), for a reader
    /// that reuses one buffer; fewer only at the end of the file. The default reads through
    /// `read(_:count:at:)` and copies, so a wrapper that only has that one still sees every read.
    /// - Returns: the number of bytes read.
    func read(
        _ file: OpenFile, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
    ) throws(SystemCallError) -> Int
    /// Writes all of `bytes` at `offset` (`pwrite`, looped).
    func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>, at offset: UInt64) throws(SystemCallError)
    /// Writes all of `bytes` at the file's position (`write`, looped): the end of an `.append` file.
    func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>) throws(SystemCallError)
    /// Makes the file durable: `fdatasync` (`.data`) or `fsync` (`.all`). A failure other than
    /// `EINTR` is never retried: the kernel may have dropped the dirty pages, so a second call
    /// could succeed without the data ever reaching the disk.
    func synchronize(_ file: OpenFile, _ scope: SyncScope) throws(SystemCallError)
    /// `ftruncate(fd, length)`.
    func truncate(_ file: OpenFile, to length: UInt64) throws(SystemCallError)
    /// `fchmod(fd, mode)`.
    func setPermissions(of file: OpenFile, to mode: UInt32) throws(SystemCallError)
    /// `flock(fd, LOCK_EX)`, waiting for other holders unless `waiting` is false.
    /// - Returns: false when `waiting` is false and someone else holds the lock.
    func lock(_ file: OpenFile, waiting: Bool) throws(SystemCallError) -> Bool
    /// `flock(fd, LOCK_UN)`.
    func unlock(_ file: OpenFile)

    // MARK: - Paths

    /// `stat(path)` (or `lstat` when not `followingLinks`); `nil` when nothing is there.
    func status(atPath path: String, followingLinks: Bool) throws(SystemCallError) -> FileStatus?
    /// `mkdir(path, mode)`, one level.
    func makeDirectory(_ path: String, mode: UInt32) throws(SystemCallError)
    /// `chmod(path, mode)`.
    func setPermissions(atPath path: String, to mode: UInt32) throws(SystemCallError)
    /// `rename(source, destination)`, atomic within one file system.
    func rename(_ source: String, to destination: String) throws(SystemCallError)
    /// `link(source, destination)`: a second name for a file; never replaces one (`EEXIST`).
    func link(_ source: String, to destination: String) throws(SystemCallError)
    /// `unlink(path)`.
    func removeFile(_ path: String) throws(SystemCallError)
    /// `rmdir(path)`.
    func removeDirectory(_ path: String) throws(SystemCallError)
    /// The names in a directory (without `.` and `..`), sorted.
    func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String]
    /// Makes a directory's entries (a rename, a new or removed name) durable: open it, `fsync`.
    func synchronizeDirectory(_ path: String) throws(SystemCallError)
    /// `faccessat(path, W_OK | X_OK, AT_EACCESS)`: whether this process (its effective user and
    /// groups) may create, rename and remove names in the directory `path` (for a file that is
    /// not a directory, `W_OK` alone: whether it may write it); throws `EACCES` when its
    /// permission bits say no, `EROFS` on a read-only file system.
    func checkWritable(_ path: String) throws(SystemCallError)
    /// `sync()`: schedules every dirty page of the machine to be written (benchmarks).
    func synchronizeAll()

    // MARK: - Identity

    /// The effective user id of this process.
    func currentUser() -> UInt32
}
