/// How `FileSystem.open` opens a file. Every file is opened close-on-exec.
public struct OpenOptions: OptionSet, Hashable, Sendable {
    /// The option bits (this type's own, translated to `O_` flags by `POSIXFileSystem`).
    public let rawValue: UInt32

    /// Creates options from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Open for reading.
    public static let read = OpenOptions(rawValue: 1 << 0)
    /// Open for writing.
    public static let write = OpenOptions(rawValue: 1 << 1)
    /// Create the file (with the given mode) when it is missing: `O_CREAT`.
    public static let create = OpenOptions(rawValue: 1 << 2)
    /// Cut the file to nothing: `O_TRUNC`.
    public static let truncate = OpenOptions(rawValue: 1 << 3)
    /// Every write goes to the end of the file: `O_APPEND`.
    public static let append = OpenOptions(rawValue: 1 << 4)
    /// Refuse a symbolic link in the last component (`ELOOP`): `O_NOFOLLOW`.
    public static let noFollow = OpenOptions(rawValue: 1 << 5)
    /// Fail when the path is not a directory: `O_DIRECTORY`.
    public static let directory = OpenOptions(rawValue: 1 << 6)

    /// Reading and writing.
    public static let readWrite: OpenOptions = [.read, .write]

    /// Whether the call may change the file or create one.
    public var writes: Bool { !isDisjoint(with: [.write, .create, .truncate, .append]) }
}
