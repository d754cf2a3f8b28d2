import Foundation

/// A fresh private directory (mode 0700) under the system's temporary directory, for one test.
///
/// One rule: the directory and everything in it are removed when the last reference to this
/// value goes away, unless the test called `keep()` to look at it afterwards. Hold the value
/// (a local `let`, or a stored property of the suite or fixture) for as long as the test uses
/// the directory; do not keep only its `url`.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory.
    public let url: URL
    // Guarded by `lock`.
    private let lock = NSLock()
    private var kept = false

    /// Creates the directory, named `PREFIX-UUID`.
    /// - Parameter prefix: the start of its name, which tells whose it is in the temporary directory.
    /// - Throws: the file system's error when the directory cannot be created.
    public convenience init(prefix: String = "storefront-tests") throws {
        try self.init(prefix: prefix, in: FileManager.default.temporaryDirectory)
    }

    /// Creates the directory on a memory file system when there is one (`/dev/shm`), under the
    /// system's temporary directory otherwise: for tests that write and sync files by the
    /// thousand, whose syncs need not reach a disk.
    public static func inMemory(prefix: String) throws -> TemporaryDirectory {
        let memory = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let writable = FileManager.default.isWritableFile(atPath: memory.path)
        return try TemporaryDirectory(prefix: prefix, in: writable ? memory : FileManager.default.temporaryDirectory)
    }

    private init(prefix: String, in base: URL) throws {
        url = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        if !lock.withLock({ kept }) { try? FileManager.default.removeItem(at: url) }
    }

    /// The directory's path.
    public var path: String { url.path }

    /// The URL of `relativePath` inside the directory (which need not exist).
    public func url(_ relativePath: String) -> URL { url.appendingPathComponent(relativePath) }

    /// The path of `relativePath` inside the directory (which need not exist).
    public func path(_ relativePath: String) -> String { url(relativePath).path }

    /// The bytes of the file at `relativePath` inside the directory, or nil when it cannot be read.
    public func contents(_ relativePath: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path(relativePath)).map(Array.init)
    }

    /// Leaves the directory in place when this value goes away, and says where it is on
    /// standard error, so a failing test's files can be inspected.
    public func keep() {
        lock.withLock { kept = true }
        FileHandle.standardError.write(Data("kept for inspection: \(url.path)\n".utf8))
    }
}
