import Foundation
import SystemIO

/// A `FileSystem` that passes every call to a real one and logs, for the files under `root`,
/// every durable operation in the order it was made: creates, writes, truncates, syncs of
/// files and directories, renames, unlinks, mkdir/rmdir and mode changes.
///
/// It keeps a model of the page cache (what the process sees) beside the log, so `finish()`
/// hands `CrashStateGenerator` the durable tree at the start (all of it on disk) and the
/// operations after it, once it has checked the model against the real tree: a write that
/// bypassed the recorder (Foundation, another file system) is caught rather than silently left
/// out of every crash state.
///
/// The real call and its log entry happen under one lock, so the log's order is the order the
/// calls reached the kernel; `flock` waits outside it (another thread may hold the lock the
/// waiter needs).
public final class RecordingFileSystem: FileSystem, @unchecked Sendable {
    /// The recorded directory (absolute, without a trailing slash).
    public let root: String
    private let base: any FileSystem
    private let lock = NSLock()
    // Guarded by `lock`.
    private var initialImage: DiskImage
    private var cachedImage: DiskImage
    private var operations: [RecordedOperation] = []
    private var descriptors: [Int32: Int] = [:]
    private var outside: [String] = []
    private var stopped = false

    /// Starts recording `root`: its current tree is taken as durable (the state before the
    /// operation under test).
    /// - Parameters:
    ///   - root: the directory to record (it must exist).
    ///   - base: the file system that does the work.
    /// - Throws: `CrashStateError` when the tree holds something the model does not handle.
    public init(root: String, wrapping base: any FileSystem = POSIXFileSystem()) throws {
        self.root = Self.normalized(root)
        self.base = base
        initialImage = try DiskImage.capture(self.root)
        cachedImage = initialImage
    }

    /// Stops recording and returns what was recorded: the tree at the start and the operations
    /// since. Later calls pass through unrecorded (a lease released as the app's objects go
    /// away), so the recording is a consistent prefix of what happened.
    ///
    /// First checks, under the recorder's lock so no call slips between, that the model of the
    /// page cache matches the real tree and that nothing was changed outside `root`.
    /// - Throws: `CrashStateError.unsupported` naming the first difference.
    public func finish() throws -> Recording {
        try locked {
            stopped = true
            if let path = outside.first {
                throw CrashStateError.unsupported("a change outside the recorded root: \(path)")
            }
            let cached = cachedImage.contents
            let real = try DiskImage.capture(root).contents
            for path in Set(cached.keys).union(real.keys).sorted() where cached[path] != real[path] {
                throw CrashStateError.unsupported(
                    "the recorder's model differs from the disk at \(path) (written without the recorder?): "
                        + "model \(Self.summary(cached[path])), disk \(Self.summary(real[path]))")
            }
            return Recording(initial: initialImage, operations: operations, final: cachedImage)
        }
    }

    /// Adds a named point to the log (for example, when the app was told a purchase succeeded).
    public func mark(_ label: String) {
        locked { if !stopped { operations.append(.mark(label)) } }
    }

    private static func summary(_ entry: DiskImage.Entry?) -> String {
        switch entry {
        case nil: "nothing"
        case .directory(let mode)?: "directory \(String(mode, radix: 8))"
        case .file(let bytes, let mode)?: "file of \(bytes.count) bytes, mode \(String(mode, radix: 8))"
        }
    }

    // MARK: - Recording

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func record(_ operation: RecordedOperation) {
        guard !stopped else { return }
        operations.append(operation)
        cachedImage.apply(operation)
    }

    /// The path relative to `root`, or `nil` for a path outside it.
    private func relative(_ path: String) -> String? {
        let path = Self.normalized(path)
        if path == root { return "" }
        guard path.hasPrefix(root + "/") else { return nil }
        return String(path.dropFirst(root.count + 1))
    }

    /// Records the operation on a path inside the root, or notes the path outside it.
    private func record(_ path: String, _ operation: (_ path: String) -> RecordedOperation) {
        guard let name = relative(path) else { return noteOutside(path) }
        record(operation(name))
    }

    /// Records the operation on two paths inside the root, or notes the first one outside it.
    private func record(
        _ source: String, _ destination: String, _ operation: (_ from: String, _ to: String) -> RecordedOperation
    ) {
        guard let from = relative(source), let to = relative(destination) else {
            return noteOutside(relative(source) == nil ? source : destination)
        }
        record(operation(from, to))
    }

    private func noteOutside(_ path: String) {
        if !stopped { outside.append(path) }
    }

    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    // MARK: - Descriptors

    public func open(_ path: String, _ options: OpenOptions, mode: UInt32) throws(SystemCallError) -> OpenFile {
        lock.lock()
        defer { lock.unlock() }
        guard let name = relative(path) else {
            if options.writes { noteOutside(path) }
            return try base.open(path, options, mode: mode)
        }
        let existing = cachedImage.node(at: name)
        let file = try base.open(path, options, mode: mode)
        switch existing {
        case .file(let inode)?:
            descriptors[file.descriptor] = inode
            if options.contains(.truncate) { record(.truncate(inode: inode, length: 0)) }
        case .directory?:
            break
        case nil:
            guard options.contains(.create) else { break }
            let inode = cachedImage.allocateInode()
            let actualMode = (try? base.status(of: file).mode & 0o7777) ?? mode
            record(.create(path: name, inode: inode, mode: actualMode))
            descriptors[file.descriptor] = inode
        }
        return file
    }

    public func close(_ file: OpenFile) {
        lock.lock()
        defer { lock.unlock() }
        descriptors[file.descriptor] = nil
        base.close(file)
    }

    public func status(of file: OpenFile) throws(SystemCallError) -> FileStatus { try base.status(of: file) }

    public func read(_ file: OpenFile, count: Int, at offset: UInt64) throws(SystemCallError) -> [UInt8] {
        try base.read(file, count: count, at: offset)
    }

    public func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>, at offset: UInt64) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.write(file, bytes, at: offset)
        if let inode = descriptors[file.descriptor] {
            record(.write(inode: inode, offset: Int(offset), bytes: Array(bytes)))
        } else if relative(file.path) == nil {
            noteOutside(file.path)
        }
    }

    public func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.write(file, bytes)
        if let inode = descriptors[file.descriptor] {
            // The end of an append-mode file: the model's size is the real one.
            record(.write(inode: inode, offset: cachedImage.size(of: inode), bytes: Array(bytes)))
        } else if relative(file.path) == nil {
            noteOutside(file.path)
        }
    }

    public func synchronize(_ file: OpenFile, _ scope: SyncScope) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.synchronize(file, scope)
        if let inode = descriptors[file.descriptor] { record(.synchronize(inode: inode)) }
    }

    public func truncate(_ file: OpenFile, to length: UInt64) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.truncate(file, to: length)
        if let inode = descriptors[file.descriptor] {
            record(.truncate(inode: inode, length: Int(length)))
        } else if relative(file.path) == nil {
            noteOutside(file.path)
        }
    }

    public func setPermissions(of file: OpenFile, to mode: UInt32) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.setPermissions(of: file, to: mode)
        if let inode = descriptors[file.descriptor] { record(.setFileMode(inode: inode, mode: mode & 0o7777)) }
    }

    public func lock(_ file: OpenFile, waiting: Bool) throws(SystemCallError) -> Bool {
        try base.lock(file, waiting: waiting)
    }

    public func unlock(_ file: OpenFile) { base.unlock(file) }

    // MARK: - Paths

    public func status(atPath path: String, followingLinks: Bool) throws(SystemCallError) -> FileStatus? {
        try base.status(atPath: path, followingLinks: followingLinks)
    }

    public func makeDirectory(_ path: String, mode: UInt32) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.makeDirectory(path, mode: mode)
        guard let name = relative(path) else { return noteOutside(path) }
        let actual =
            (try? base.status(atPath: path, followingLinks: false)?.mode).flatMap { $0 }.map { $0 & 0o7777 } ?? mode
        record(.makeDirectory(path: name, mode: actual))
    }

    public func setPermissions(atPath path: String, to mode: UInt32) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.setPermissions(atPath: path, to: mode)
        record(path) { .setPathMode(path: $0, mode: mode & 0o7777) }
    }

    public func rename(_ source: String, to destination: String) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.rename(source, to: destination)
        record(source, destination, RecordedOperation.rename)
    }

    public func link(_ source: String, to destination: String) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.link(source, to: destination)
        record(source, destination, RecordedOperation.link)
    }

    public func removeFile(_ path: String) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.removeFile(path)
        record(path, RecordedOperation.removeFile)
    }

    public func removeDirectory(_ path: String) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.removeDirectory(path)
        record(path, RecordedOperation.removeDirectory)
    }

    public func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
        try base.contentsOfDirectory(path)
    }

    public func synchronizeDirectory(_ path: String) throws(SystemCallError) {
        lock.lock()
        defer { lock.unlock() }
        try base.synchronizeDirectory(path)
        if let name = relative(path) { record(.synchronizeDirectory(path: name)) }
    }

    public func synchronizeAll() {
        lock.lock()
        defer { lock.unlock() }
        base.synchronizeAll()
        record(.synchronizeAll)
    }

    // MARK: - Identity

    public func currentUser() -> UInt32 { base.currentUser() }

    /// Changes nothing, so nothing is recorded.
    public func checkWritable(_ path: String) throws(SystemCallError) { try base.checkWritable(path) }
}

/// What a `RecordingFileSystem` saw: the durable tree at the start, every durable operation
/// since, and the tree as the page cache held it at the end.
public struct Recording: Sendable {
    /// The tree before the first operation, all of it durable.
    public let initial: DiskImage
    /// The operations, in order.
    public let operations: [RecordedOperation]
    /// The tree after every operation (what a process saw, and what SIGKILL leaves).
    public let final: DiskImage

    /// Creates a recording (tests of the generator build small ones by hand).
    public init(initial: DiskImage, operations: [RecordedOperation], final: DiskImage? = nil) {
        self.initial = initial
        self.operations = operations
        if let final {
            self.final = final
        } else {
            var image = initial
            for operation in operations { image.apply(operation) }
            self.final = image
        }
    }

    /// The index of the first mark named `label`, if any.
    public func index(ofMark label: String) -> Int? {
        operations.firstIndex(of: .mark(label))
    }
}
