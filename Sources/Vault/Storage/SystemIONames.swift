import SystemIO

/// The file system a vault reads and writes through (`VaultConfiguration.fileSystem`):
/// SystemIO's, which tests wrap to make a call fail.
public typealias VaultFileSystem = SystemIO.FileSystem
/// The real file system.
public typealias PosixFileSystem = SystemIO.POSIXFileSystem
/// A failed system call: its name, path and `errno`.
public typealias SystemCallError = SystemIO.SystemCallError
/// What `stat` says about a file.
public typealias FileStatus = SystemIO.FileStatus
