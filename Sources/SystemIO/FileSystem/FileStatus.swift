/// What `stat` says about a file.
public struct FileStatus: Sendable, Hashable {
    /// The device holding the file; with `inode`, the file's identity, which changes when
    /// another file is renamed over the path.
    public var device: UInt64
    /// The inode number.
    public var inode: UInt64
    /// Size in bytes.
    public var size: UInt64
    /// Permission and type bits (`st_mode`).
    public var mode: UInt32
    /// Owner's user id.
    public var owner: UInt32
    /// The last modification of the contents, in nanoseconds since 1970 (`st_mtim`).
    public var modified: Int64 = 0
    /// The last change of the contents or the inode, in nanoseconds since 1970 (`st_ctim`):
    /// unlike `modified`, no call can set it back.
    public var changed: Int64 = 0

    /// Whether this is a symbolic link (only `lstat` reports one).
    public var isSymbolicLink: Bool { mode & 0o170000 == 0o120000 }
    /// Whether this is a directory.
    public var isDirectory: Bool { mode & 0o170000 == 0o040000 }
    /// Whether this is a regular file.
    public var isRegularFile: Bool { mode & 0o170000 == 0o100000 }
}
