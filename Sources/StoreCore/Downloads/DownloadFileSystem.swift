/// The file operations downloads need, injected so tests can make the disk full or a
/// directory unwritable; `POSIXFileSystem` is the production default.
public protocol DownloadFileSystem: Sendable {
    /// Creates a directory and its missing parents (mode 0700); succeeds if it exists.
    func createDirectory(_ path: String) throws(FileSystemError)
    /// Opens (creating when missing) a file for reading and writing.
    func open(_ path: String) throws(FileSystemError) -> OpenFile
    /// The file's current length.
    func length(_ file: OpenFile) throws(FileSystemError) -> Int64
    /// Cuts the file to `length` bytes and puts the write position there.
    func truncate(_ file: OpenFile, to length: Int64) throws(FileSystemError)
    /// Writes every byte at the write position.
    func write(_ file: OpenFile, _ bytes: [UInt8]) throws(FileSystemError)
    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    func read(_ file: OpenFile, at offset: Int64, count: Int) throws(FileSystemError) -> [UInt8]
    /// Makes the file's bytes durable.
    func sync(_ file: OpenFile) throws(FileSystemError)
    /// Closes the file.
    func close(_ file: OpenFile)
    /// Replaces `path` with `bytes` atomically (temporary file, fsync, rename) and, when
    /// `syncsDirectory`, durably (fsync of the directory, so the rename survives a power loss).
    func writeAtomically(_ path: String, _ bytes: [UInt8], syncsDirectory: Bool) throws(FileSystemError)
    /// Reads a whole small file; `nil` when it does not exist.
    func readSmallFile(_ path: String) throws(FileSystemError) -> [UInt8]?
    /// Renames atomically within one file system.
    func rename(_ from: String, to: String) throws(FileSystemError)
    /// Makes a directory's entries durable.
    func syncDirectory(_ path: String) throws(FileSystemError)
    /// Removes a file or a directory tree; succeeds if it does not exist.
    func remove(_ path: String) throws(FileSystemError)
    /// Whether something exists at `path`.
    func exists(_ path: String) -> Bool
    /// The names in a directory (empty when it does not exist).
    func contents(ofDirectory path: String) -> [String]
    /// The size of a regular file, `nil` when there is none.
    func fileSize(_ path: String) -> Int64?
    /// Takes an exclusive advisory lock on `path` (created when missing) without waiting;
    /// `nil` when another process holds it. The kernel drops it when the process dies.
    func tryLock(_ path: String) throws(FileSystemError) -> OpenFile?
    /// Releases a lock taken with `tryLock`.
    func unlock(_ file: OpenFile)
}

/// A file opened through a `DownloadFileSystem`.
public struct OpenFile: Hashable, Sendable {
    /// The file's path, for messages.
    public let path: String
    /// The descriptor (or any number the file system chooses).
    public let handle: Int32

    /// Wraps a handle.
    public init(path: String, handle: Int32) {
        self.path = path
        self.handle = handle
    }
}

/// A failed file operation: the path and the `errno` it failed with.
public struct FileSystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path the operation was about.
    public let path: String
    /// The POSIX error number.
    public let code: Int32
    /// The system's text for `code`.
    public let message: String

    /// Creates an error.
    public init(path: String, code: Int32, message: String) {
        self.path = path
        self.code = code
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
