#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX error number, with names for the ones the package acts on, so no layer above
/// `SystemIO` needs libc to tell a full disk from a missing file.
public struct Errno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public let rawValue: Int32

    /// Wraps an `errno` value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The `errno` of this thread: what the last failed call set.
    static var current: Errno {
        get { Errno(rawValue: errno) }
        set { errno = newValue.rawValue }
    }

    /// `EINTR`: a signal interrupted the call (retried inside `SystemIO`, never seen above it).
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EIO`: the device failed.
    public static let ioError = Errno(rawValue: EIO)
    /// `ENOSPC`: no space left on the device.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// `EDQUOT`: the user's disk quota is spent.
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    /// `EACCES`: permission denied.
    public static let accessDenied = Errno(rawValue: EACCES)
    /// `EPERM`: the operation is not permitted.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `EROFS`: the file system is read-only.
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// `ENOENT`: no such file or directory.
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// `EEXIST`: the file exists.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// `ENOTDIR`: a path component is not a directory.
    public static let notADirectory = Errno(rawValue: ENOTDIR)
    /// `EISDIR`: the path is a directory.
    public static let isADirectory = Errno(rawValue: EISDIR)
    /// `ELOOP`: a symbolic link where links are refused (`O_NOFOLLOW`), or too many links.
    public static let symbolicLink = Errno(rawValue: ELOOP)
    /// `EWOULDBLOCK`: a lock is held elsewhere and the call was told not to wait.
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    /// `EFBIG`: the file is too large.
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// `EBADF`: not an open descriptor.
    public static let badDescriptor = Errno(rawValue: EBADF)
    /// `ENOTEMPTY`: the directory is not empty.
    public static let directoryNotEmpty = Errno(rawValue: ENOTEMPTY)
    /// `ESRCH`: no such process.
    public static let noSuchProcess = Errno(rawValue: ESRCH)

    /// Whether the disk (or the user's quota) is full: `ENOSPC` or `EDQUOT`.
    public var isDiskFull: Bool { self == .noSpace || self == .quotaExceeded }

    /// Whether the path cannot be written for lack of rights or a read-only file system:
    /// `EACCES`, `EPERM` or `EROFS`.
    public var isPermissionProblem: Bool {
        self == .accessDenied || self == .notPermitted || self == .readOnlyFileSystem
    }

    /// The system's text for this error (`strerror`).
    public var description: String { String(cString: strerror(rawValue)) }
}
