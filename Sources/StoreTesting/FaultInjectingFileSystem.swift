import Foundation
package import SystemIO

/// The package's one test fake: a real file system (or any other) that fails on command, so
/// tests of every layer can prove a failing disk gives that layer's clear error and loses
/// nothing acknowledged.
///
/// - `fail(_:onCall:with:repeating:)`: the N-th call of an operation (counted from the
///   moment of the call to `fail`) fails with an `errno`, once or from then on (a dying disk).
/// - `setFreeSpace(_:)`: writes fail with `ENOSPC` once a byte budget is spent (a full disk).
/// - `denyWrites(under:with:)`: every change under a directory fails with `EACCES` (an
///   unwritable directory, which `chmod` cannot make when the tests run as root).
/// - `reportedUser`: the user the process claims to be (files then look foreign).
/// - `beforeNextSynchronize(_:)`: runs a body just before the next file sync, so a test can
///   make another writer or reader act in the window between a write and its sync.
///
/// Operations pass through to `base` otherwise; every call is counted (`calls(of:)`).
package final class FaultInjectingFileSystem: FileSystem, @unchecked Sendable {
    /// The calls that can be made to fail, one per `FileSystem` requirement that can fail.
    package enum Operation: String, CaseIterable, Sendable {
        /// `open`.
        case open
        /// `fstat`.
        case status
        /// `pread`.
        case read
        /// `pwrite` and `write`.
        case write
        /// `fsync` and `fdatasync` of a file.
        case synchronize
        /// `ftruncate`.
        case truncate
        /// `fchmod` and `chmod`.
        case setPermissions
        /// `flock`.
        case lock
        /// `stat` and `lstat`.
        case statusAtPath
        /// `mkdir`.
        case makeDirectory
        /// `rename`.
        case rename
        /// `link`.
        case link
        /// `unlink`.
        case removeFile
        /// `rmdir`.
        case removeDirectory
        /// Listing a directory.
        case contentsOfDirectory
        /// `fsync` of a directory.
        case synchronizeDirectory
        /// `faccessat` (may the process write in a directory).
        case access
    }

    private struct Rule {
        var operation: Operation
        var remaining: Int
        var errno: Errno
        var repeating: Bool
    }

    private struct State {
        var rules: [Rule] = []
        var counts: [Operation: Int] = [:]
        var freeSpace: Int64?
        var denied: (directory: String, errno: Errno)?
        var user: UInt32?
        var beforeSynchronize: (@Sendable () -> Void)?
    }

    private let base: any FileSystem
    // Guarded by `lock` (NSLock rather than Mutex: the package still claims macOS 13).
    private let lock = NSLock()
    private var unguarded = State()

    private func withState<R>(_ body: (inout State) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&unguarded)
    }

    /// Wraps `base` (the real file system by default).
    package init(wrapping base: any FileSystem = POSIXFileSystem()) {
        self.base = base
    }

    // MARK: - Faults

    /// Makes the `call`-th next call of `operation` fail with `errno`.
    /// - Parameters:
    ///   - operation: the call to fail.
    ///   - call: 1 for the very next call of it, 2 for the one after, …
    ///   - errno: the error it fails with (`EIO`, `ENOSPC`, `EDQUOT`, …).
    ///   - repeating: keep failing every later call too, as a dying disk does.
    package func fail(
        _ operation: Operation, onCall call: Int = 1, with errno: Errno = .ioError, repeating: Bool = false
    ) {
        withState {
            $0.rules.append(Rule(operation: operation, remaining: max(1, call), errno: errno, repeating: repeating))
        }
    }

    /// Gives the disk `bytes` of free space: a write larger than what is left fails with
    /// `ENOSPC` and writes nothing; `nil` makes the space unlimited again.
    package func setFreeSpace(_ bytes: Int64?) {
        withState { $0.freeSpace = bytes }
    }

    /// Makes every change of `directory` and of anything under it fail with `errno` (creating,
    /// opening for writing, renaming to or from, removing, changing permissions); `nil` lifts it.
    package func denyWrites(under directory: String?, with errno: Errno = .accessDenied) {
        withState { $0.denied = directory.map { ($0, errno) } }
    }

    /// Removes every fault; the counts stay.
    package func heal() {
        withState { state in
            state.rules = []
            state.freeSpace = nil
            state.denied = nil
        }
    }

    /// Runs `body` once, just before the next `fsync` or `fdatasync` of a file is made (and
    /// before a fault of it is counted), on the thread that makes it.
    package func beforeNextSynchronize(_ body: @escaping @Sendable () -> Void) {
        withState { $0.beforeSynchronize = body }
    }

    /// The user id `currentUser()` reports; `nil` reports the real one.
    package var reportedUser: UInt32? {
        get { withState { $0.user } }
        set { withState { $0.user = newValue } }
    }

    /// How many times `operation` was called (failed calls included).
    package func calls(of operation: Operation) -> Int {
        withState { $0.counts[operation] ?? 0 }
    }

    /// Counts the call and throws the error a rule holds for it.
    private func check(
        _ operation: Operation, _ name: String, path: String, changing paths: [String] = []
    ) throws(SystemCallError) {
        let failure: Errno? = withState { state in
            state.counts[operation, default: 0] += 1
            if let denied = state.denied,
                paths.contains(where: { $0 == denied.directory || $0.hasPrefix(denied.directory + "/") })
            {
                return denied.errno
            }
            var fired: Errno?
            var index = 0
            while index < state.rules.count {
                if state.rules[index].operation == operation {
                    state.rules[index].remaining -= 1
                    if state.rules[index].remaining <= 0 {
                        if fired == nil { fired = state.rules[index].errno }
                        if !state.rules[index].repeating {
                            state.rules.remove(at: index)
                            continue
                        }
                    }
                }
                index += 1
            }
            return fired
        }
        if let failure { throw SystemCallError(name, path: path, errno: failure) }
    }

    /// Spends `count` bytes of free space, or fails with `ENOSPC`.
    private func spend(_ count: Int, _ name: String, path: String) throws(SystemCallError) {
        let full: Bool = withState { state in
            guard let free = state.freeSpace else { return false }
            if Int64(count) > free { return true }
            state.freeSpace = free - Int64(count)
            return false
        }
        if full { throw SystemCallError(name, path: path, errno: .noSpace) }
    }

    // MARK: - FileSystem

    package func open(_ path: String, _ options: OpenOptions, mode: UInt32) throws(SystemCallError) -> OpenFile {
        try check(.open, "open", path: path, changing: options.writes ? [path] : [])
        return try base.open(path, options, mode: mode)
    }

    package func close(_ file: OpenFile) { base.close(file) }

    package func status(of file: OpenFile) throws(SystemCallError) -> FileStatus {
        try check(.status, "fstat", path: file.path)
        return try base.status(of: file)
    }

    package func read(_ file: OpenFile, count: Int, at offset: UInt64) throws(SystemCallError) -> [UInt8] {
        try check(.read, "pread", path: file.path)
        return try base.read(file, count: count, at: offset)
    }

    package func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>, at offset: UInt64) throws(SystemCallError) {
        try check(.write, "pwrite", path: file.path)
        try spend(bytes.count, "pwrite", path: file.path)
        try base.write(file, bytes, at: offset)
    }

    package func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>) throws(SystemCallError) {
        try check(.write, "write", path: file.path)
        try spend(bytes.count, "write", path: file.path)
        try base.write(file, bytes)
    }

    package func synchronize(_ file: OpenFile, _ scope: SyncScope) throws(SystemCallError) {
        let hook = withState { state in
            defer { state.beforeSynchronize = nil }
            return state.beforeSynchronize
        }
        hook?()
        try check(.synchronize, scope.callName, path: file.path)
        try base.synchronize(file, scope)
    }

    package func truncate(_ file: OpenFile, to length: UInt64) throws(SystemCallError) {
        try check(.truncate, "ftruncate", path: file.path)
        try base.truncate(file, to: length)
    }

    package func setPermissions(of file: OpenFile, to mode: UInt32) throws(SystemCallError) {
        try check(.setPermissions, "fchmod", path: file.path)
        try base.setPermissions(of: file, to: mode)
    }

    package func lock(_ file: OpenFile, waiting: Bool) throws(SystemCallError) -> Bool {
        try check(.lock, "flock", path: file.path)
        return try base.lock(file, waiting: waiting)
    }

    package func unlock(_ file: OpenFile) { base.unlock(file) }

    package func status(atPath path: String, followingLinks: Bool) throws(SystemCallError) -> FileStatus? {
        try check(.statusAtPath, followingLinks ? "stat" : "lstat", path: path)
        return try base.status(atPath: path, followingLinks: followingLinks)
    }

    package func makeDirectory(_ path: String, mode: UInt32) throws(SystemCallError) {
        try check(.makeDirectory, "mkdir", path: path, changing: [path])
        try base.makeDirectory(path, mode: mode)
    }

    package func setPermissions(atPath path: String, to mode: UInt32) throws(SystemCallError) {
        try check(.setPermissions, "chmod", path: path, changing: [path])
        try base.setPermissions(atPath: path, to: mode)
    }

    package func checkWritable(_ path: String) throws(SystemCallError) {
        try check(.access, "faccessat", path: path, changing: [path])
        try base.checkWritable(path)
    }

    package func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try check(.rename, "rename", path: destination, changing: [source, destination])
        try base.rename(source, to: destination)
    }

    package func link(_ source: String, to destination: String) throws(SystemCallError) {
        try check(.link, "link", path: destination, changing: [destination])
        try base.link(source, to: destination)
    }

    package func removeFile(_ path: String) throws(SystemCallError) {
        try check(.removeFile, "unlink", path: path, changing: [path])
        try base.removeFile(path)
    }

    package func removeDirectory(_ path: String) throws(SystemCallError) {
        try check(.removeDirectory, "rmdir", path: path, changing: [path])
        try base.removeDirectory(path)
    }

    package func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
        try check(.contentsOfDirectory, "opendir", path: path)
        return try base.contentsOfDirectory(path)
    }

    package func synchronizeDirectory(_ path: String) throws(SystemCallError) {
        try check(.synchronizeDirectory, "fsync", path: path)
        try base.synchronizeDirectory(path)
    }

    package func synchronizeAll() { base.synchronizeAll() }

    package func currentUser() -> UInt32 { withState { $0.user } ?? base.currentUser() }
}
