import Crypto
import Foundation

/// A directory tree as a model: names bound to files (by inode) and directories, and each
/// file's bytes and mode. `RecordingFileSystem` keeps one as the page cache sees the tree;
/// `CrashStateGenerator` replays a subset of the recorded operations onto the durable one to
/// get what a disk could hold after a power loss, and `materialize(at:)` writes it out.
public struct DiskImage: Sendable {
    /// What a name is bound to.
    public enum Node: Hashable, Sendable {
        /// A regular file: its inode.
        case file(inode: Int)
        /// A directory and its permission bits.
        case directory(mode: UInt32)
    }

    /// A regular file's content and permission bits.
    public struct File: Hashable, Sendable {
        /// The bytes.
        public var bytes: [UInt8]
        /// The permission bits.
        public var mode: UInt32
    }

    /// One entry of the tree as a person compares it: no inode numbers.
    public enum Entry: Hashable, Sendable {
        /// A directory.
        case directory(mode: UInt32)
        /// A regular file.
        case file(bytes: [UInt8], mode: UInt32)
    }

    /// Relative path (no leading slash; the root itself is implicit) → node.
    public private(set) var entries: [String: Node] = [:]
    /// Inode → file. Files stay here when their last name goes (a descriptor may still write).
    public private(set) var files: [Int: File] = [:]
    /// The next inode number `allocateInode` gives.
    public private(set) var nextInode = 1

    /// An empty tree.
    public init() {}

    /// The tree under `root` on disk (regular files and directories; anything else throws).
    public static func capture(_ root: String) throws -> DiskImage {
        var image = DiskImage()
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: root) else { return image }
        var paths: [String] = []
        while let path = walker.nextObject() as? String { paths.append(path) }
        for path in paths.sorted(by: Self.parentsFirst) {
            let full = root + "/" + path
            let attributes = try manager.attributesOfItem(atPath: full)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.uint32Value ?? 0o600
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory?:
                image.entries[path] = .directory(mode: mode)
            case .typeRegular?:
                let inode = image.allocateInode()
                image.entries[path] = .file(inode: inode)
                image.files[inode] = File(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: full))), mode: mode)
            default:
                throw CrashStateError.unsupported("\(full) is neither a regular file nor a directory")
            }
        }
        return image
    }

    /// A new inode number.
    public mutating func allocateInode() -> Int {
        defer { nextInode += 1 }
        return nextInode
    }

    /// The node at `path`, if any.
    public func node(at path: String) -> Node? { entries[path] }

    /// The size of inode `inode`'s file (0 when it holds nothing yet).
    public func size(of inode: Int) -> Int { files[inode]?.bytes.count ?? 0 }

    /// The tree without inode numbers, for comparing two images.
    public var contents: [String: Entry] {
        entries.mapValues { node in
            switch node {
            case .directory(let mode): .directory(mode: mode)
            case .file(let inode): .file(bytes: files[inode]?.bytes ?? [], mode: files[inode]?.mode ?? 0o600)
            }
        }
    }

    // MARK: - Applying operations

    /// How much of a write reaches the disk.
    public enum WritePart: Hashable, Sendable {
        /// All of it.
        case whole
        /// Only its first `count` bytes (torn by the power cut).
        case prefix(Int)
        /// Its size but not its data: zeros where it wrote (metadata before data).
        case zeros
    }

    /// Applies `operation` as the kernel would, if its preconditions hold (a rename's source
    /// exists, a new name's directory exists, …); a replay of a subset of operations skips the
    /// ones a missing earlier operation makes impossible, as the journal could never hold them.
    /// - Returns: whether the operation changed the image.
    @discardableResult
    public mutating func apply(_ operation: RecordedOperation, part: WritePart = .whole) -> Bool {
        switch operation {
        case .create(let path, let inode, let mode):
            guard entries[path] == nil, isDirectory(Self.parent(of: path)) else { return false }
            entries[path] = .file(inode: inode)
            if files[inode] == nil { files[inode] = File(bytes: [], mode: mode) }
            nextInode = max(nextInode, inode + 1)
        case .makeDirectory(let path, let mode):
            guard entries[path] == nil, isDirectory(Self.parent(of: path)) else { return false }
            entries[path] = .directory(mode: mode)
        case .write(let inode, let offset, let bytes):
            var file = files[inode] ?? File(bytes: [], mode: 0o600)
            let written: ArraySlice<UInt8>
            switch part {
            case .whole: written = bytes[...]
            case .prefix(let count): written = bytes.prefix(count)
            case .zeros: written = ArraySlice(repeating: 0, count: bytes.count)
            }
            if file.bytes.count < offset + written.count {
                file.bytes.append(contentsOf: repeatElement(0, count: offset + written.count - file.bytes.count))
            }
            file.bytes.replaceSubrange(offset..<(offset + written.count), with: written)
            files[inode] = file
        case .truncate(let inode, let length):
            var file = files[inode] ?? File(bytes: [], mode: 0o600)
            if file.bytes.count > length {
                file.bytes.removeLast(file.bytes.count - length)
            } else {
                file.bytes.append(contentsOf: repeatElement(0, count: length - file.bytes.count))
            }
            files[inode] = file
        case .rename(let from, let to):
            return rename(from, to)
        case .link(let from, let to):
            guard case .file? = entries[from], entries[to] == nil, isDirectory(Self.parent(of: to)) else {
                return false
            }
            entries[to] = entries[from]
        case .removeFile(let path):
            guard case .file? = entries[path] else { return false }
            entries[path] = nil
        case .removeDirectory(let path):
            guard case .directory? = entries[path], !hasChildren(path) else { return false }
            entries[path] = nil
        case .setFileMode(let inode, let mode):
            guard files[inode] != nil else { return false }
            files[inode]?.mode = mode
        case .setPathMode(let path, let mode):
            switch entries[path] {
            case .file(let inode)?: files[inode]?.mode = mode
            case .directory?: entries[path] = .directory(mode: mode)
            case nil: return false
            }
        case .synchronize, .synchronizeDirectory, .synchronizeAll, .mark:
            return false
        }
        return true
    }

    private mutating func rename(_ from: String, _ to: String) -> Bool {
        guard let source = entries[from], isDirectory(Self.parent(of: to)), from != to else { return false }
        switch source {
        case .file:
            if case .directory? = entries[to] { return false }
            entries[from] = nil
            entries[to] = source
        case .directory:
            guard !to.hasPrefix(from + "/") else { return false }
            if let target = entries[to] {
                guard case .directory = target, !hasChildren(to) else { return false }
            }
            let moved = entries.filter { $0.key.hasPrefix(from + "/") }
            for key in moved.keys { entries[key] = nil }
            entries[from] = nil
            entries[to] = source
            for (key, node) in moved { entries[to + key.dropFirst(from.count)] = node }
        }
        return true
    }

    private func isDirectory(_ path: String) -> Bool {
        if path.isEmpty { return true }
        if case .directory? = entries[path] { return true }
        return false
    }

    private func hasChildren(_ path: String) -> Bool {
        entries.keys.contains { $0.hasPrefix(path + "/") }
    }

    // MARK: - Writing out and naming

    /// Writes the tree into the existing empty directory `directory`, modes included.
    public func materialize(at directory: URL) throws {
        let manager = FileManager.default
        let paths = entries.keys.sorted(by: Self.parentsFirst)
        for path in paths {
            let url = directory.appendingPathComponent(path)
            switch entries[path]! {
            case .directory:
                try manager.createDirectory(at: url, withIntermediateDirectories: false)
            case .file(let inode):
                try Data(files[inode]?.bytes ?? []).write(to: url)
            }
        }
        // Modes last, deepest first, so a narrow directory mode never blocks its own filling.
        for path in paths.reversed() {
            let mode: UInt32
            switch entries[path]! {
            case .directory(let m): mode = m
            case .file(let inode): mode = files[inode]?.mode ?? 0o600
            }
            try manager.setAttributes(
                [.posixPermissions: NSNumber(value: mode)], ofItemAtPath: directory.appendingPathComponent(path).path)
        }
    }

    /// A SHA-256 of the tree's `contents`: two images with the same digest hold the same tree.
    public func digest() throws -> [UInt8] {
        var bytes: [UInt8] = []
        for (path, entry) in contents.sorted(by: { $0.key < $1.key }) {
            bytes += Array(path.utf8) + [0]
            switch entry {
            case .directory(let mode):
                bytes += Array("d\(mode)".utf8) + [0]
            case .file(let content, let mode):
                bytes += Array("f\(mode):".utf8) + (try Digest.hash(.sha256, content)) + [0]
            }
        }
        return try Digest.hash(.sha256, bytes)
    }

    // MARK: - Paths

    /// The relative path of the directory holding `path` (`""` for the root).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    private static func parentsFirst(_ a: String, _ b: String) -> Bool {
        let (da, db) = (a.split(separator: "/").count, b.split(separator: "/").count)
        return da != db ? da < db : a < b
    }
}

/// What the crash-state tools refuse, with the reason.
public enum CrashStateError: Error, CustomStringConvertible {
    /// Something the model does not handle (a symbolic link, a write outside the root).
    case unsupported(String)

    public var description: String {
        switch self {
        case .unsupported(let reason): "crash states: unsupported: \(reason)"
        }
    }
}
