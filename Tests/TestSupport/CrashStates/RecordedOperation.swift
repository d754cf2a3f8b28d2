/// One durable operation a `RecordingFileSystem` saw, in the order the process made it.
///
/// Paths are relative to the recorded root (`""` is the root itself); files are named by the
/// recorder's own inode numbers, so data written through a descriptor follows the file across
/// renames and unlinks, as the kernel's page cache does.
public enum RecordedOperation: Hashable, Sendable, CustomStringConvertible {
    /// A new regular file (`open` with `O_CREAT` where nothing was).
    case create(path: String, inode: Int, mode: UInt32)
    /// A new directory (`mkdir`).
    case makeDirectory(path: String, mode: UInt32)
    /// Bytes written at an offset (`pwrite`, or `write` at the end of an `O_APPEND` file).
    case write(inode: Int, offset: Int, bytes: [UInt8])
    /// The file cut or extended to a length (`ftruncate`, or `O_TRUNC` at open).
    case truncate(inode: Int, length: Int)
    /// `fsync` or `fdatasync` of a file: its data and size are durable.
    case synchronize(inode: Int)
    /// `rename(source, destination)`.
    case rename(from: String, to: String)
    /// `link(source, destination)`: a second name for the source's file.
    case link(from: String, to: String)
    /// `unlink(path)`.
    case removeFile(path: String)
    /// `rmdir(path)`.
    case removeDirectory(path: String)
    /// `fsync` of a directory: its entries are durable.
    case synchronizeDirectory(path: String)
    /// `sync()`: everything is durable.
    case synchronizeAll
    /// `fchmod` of a file.
    case setFileMode(inode: Int, mode: UInt32)
    /// `chmod` of a path.
    case setPathMode(path: String, mode: UInt32)
    /// A point the test named (say, "the app was told the purchase succeeded"); no change.
    case mark(String)

    /// What kind of change the operation is, for the crash-state rules.
    public enum Kind: Sendable, Hashable {
        /// Changes a file's content or size (persists per file, on its `fsync`).
        case content(inode: Int)
        /// Changes directory entries (persists when the directory is synced).
        case namespace(directories: [String])
        /// Makes a file's content durable.
        case fileSync(inode: Int)
        /// Makes a directory's entries durable.
        case directorySync(path: String)
        /// Makes everything durable.
        case syncAll
        /// Changes permission bits only (kept in every state: they do not decide crash safety).
        case metadata
        /// A named point.
        case mark
    }

    /// The operation's kind.
    public var kind: Kind {
        switch self {
        case .create(let path, _, _), .makeDirectory(let path, _), .removeFile(let path), .removeDirectory(let path):
            .namespace(directories: [DiskImage.parent(of: path)])
        case .rename(let from, let to):
            .namespace(directories: Array(Set([DiskImage.parent(of: from), DiskImage.parent(of: to)])).sorted())
        case .link(_, let to): .namespace(directories: [DiskImage.parent(of: to)])
        case .write(let inode, _, _), .truncate(let inode, _): .content(inode: inode)
        case .synchronize(let inode): .fileSync(inode: inode)
        case .synchronizeDirectory(let path): .directorySync(path: path)
        case .synchronizeAll: .syncAll
        case .setFileMode, .setPathMode: .metadata
        case .mark: .mark
        }
    }

    public var description: String {
        switch self {
        case .create(let path, let inode, let mode): "create \(show(path)) #\(inode) \(String(mode, radix: 8))"
        case .makeDirectory(let path, let mode): "mkdir \(show(path)) \(String(mode, radix: 8))"
        case .write(let inode, let offset, let bytes): "write #\(inode) @\(offset) +\(bytes.count)"
        case .truncate(let inode, let length): "truncate #\(inode) to \(length)"
        case .synchronize(let inode): "fsync #\(inode)"
        case .rename(let from, let to): "rename \(show(from)) -> \(show(to))"
        case .link(let from, let to): "link \(show(from)) -> \(show(to))"
        case .removeFile(let path): "unlink \(show(path))"
        case .removeDirectory(let path): "rmdir \(show(path))"
        case .synchronizeDirectory(let path): "fsync dir \(show(path))"
        case .synchronizeAll: "sync"
        case .setFileMode(let inode, let mode): "fchmod #\(inode) \(String(mode, radix: 8))"
        case .setPathMode(let path, let mode): "chmod \(show(path)) \(String(mode, radix: 8))"
        case .mark(let label): "-- \(label)"
        }
    }

    private func show(_ path: String) -> String { path.isEmpty ? "." : path }
}
