/// The file-system calls the vault makes, behind a protocol so a test can make one fail
/// (an fsync that reports EIO, a full disk). `PosixFileSystem` is the real one.
///
/// Every method throws `SystemCallError` with the call's `errno`.
public protocol VaultFileSystem: Sendable {
    /// `open(path, flags | O_CLOEXEC | O_NOFOLLOW, mode)`; returns the descriptor.
    func open(_ path: String, flags: Int32, mode: UInt32) throws(SystemCallError) -> Int32
    /// `close(fd)`.
    func close(_ fd: Int32)
    /// `fstat(fd)`.
    func status(_ fd: Int32) throws(SystemCallError) -> FileStatus
    /// `lstat(path)`; `nil` when the path does not exist.
    func linkStatus(_ path: String) throws(SystemCallError) -> FileStatus?
    /// Reads exactly `count` bytes at `offset` (fewer only at end of file).
    func read(_ fd: Int32, count: Int, at offset: UInt64) throws(SystemCallError) -> [UInt8]
    /// Writes all of `bytes` at `offset`.
    func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>, at offset: UInt64) throws(SystemCallError)
    /// Makes the file's data (and size) durable: `fdatasync`.
    func sync(_ fd: Int32) throws(SystemCallError)
    /// Makes a directory's entries durable: open it and `fsync`.
    func syncDirectory(_ path: String) throws(SystemCallError)
    /// `ftruncate(fd, length)`.
    func truncate(_ fd: Int32, to length: UInt64) throws(SystemCallError)
    /// `fchmod(fd, mode)`.
    func setMode(_ fd: Int32, _ mode: UInt32) throws(SystemCallError)
    /// `rename(from, to)`, atomic within one file system.
    func rename(_ from: String, to: String) throws(SystemCallError)
    /// `unlink(path)`.
    func remove(_ path: String) throws(SystemCallError)
    /// `mkdir(path, mode)` then `chmod(path, mode)` so the umask cannot widen it.
    func makeDirectory(_ path: String, mode: UInt32) throws(SystemCallError)
    /// `flock(fd, LOCK_EX)`, waiting for other holders.
    func lockExclusive(_ fd: Int32) throws(SystemCallError)
    /// `flock(fd, LOCK_UN)`.
    func unlock(_ fd: Int32)
    /// The effective user id of this process.
    func currentUser() -> UInt32
}
