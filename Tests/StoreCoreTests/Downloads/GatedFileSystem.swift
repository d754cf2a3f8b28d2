import Dispatch
import Synchronization
import SystemIO

/// The real file system with a log of the partial files' writes and syncs, in the order they
/// ended, and a gate: the first positional write at offset `gatedOffset` blocks until `open()`
/// (so a test can hold one background write back while the transfer goes on).
final class GatedFileSystem: FileSystem, Sendable {
    /// A write or sync that ended, in order.
    enum Event: Equatable, Sendable {
        case wrote(offset: UInt64, count: Int)
        case syncStarted
        case synced
    }

    private struct State {
        var events: [Event] = []
        var gateOpen = false
        var gated = false
        var entered: CheckedContinuation<Void, Never>?
        var enteredAlready = false
    }

    private let base = POSIXFileSystem()
    private let gatedOffset: UInt64?
    private let state = Mutex(State())
    private let gate = DispatchSemaphore(value: 0)

    init(gatedOffset: UInt64?) {
        self.gatedOffset = gatedOffset
    }

    /// Every write and sync so far, in the order they ended (syncs also when they began).
    var events: [Event] { state.withLock { $0.events } }

    /// Returns once the gated write is blocked at the gate.
    func waitUntilGated() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.enteredAlready { return true }
                state.entered = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets the gated write go on.
    func open() {
        gate.signal()
    }

    func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>, at offset: UInt64) throws(SystemCallError) {
        let blocks = state.withLock { state -> Bool in
            guard offset == gatedOffset, !state.gated else { return false }
            state.gated = true
            return true
        }
        if blocks {
            let entered = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.enteredAlready = true
                defer { state.entered = nil }
                return state.entered
            }
            entered?.resume()
            gate.wait()
        }
        try base.write(file, bytes, at: offset)
        state.withLock { $0.events.append(.wrote(offset: offset, count: bytes.count)) }
    }

    func synchronize(_ file: OpenFile, _ scope: SyncScope) throws(SystemCallError) {
        state.withLock { $0.events.append(.syncStarted) }
        try base.synchronize(file, scope)
        state.withLock { $0.events.append(.synced) }
    }

    func open(_ path: String, _ options: OpenOptions, mode: UInt32) throws(SystemCallError) -> OpenFile {
        try base.open(path, options, mode: mode)
    }
    func close(_ file: OpenFile) { base.close(file) }
    func status(of file: OpenFile) throws(SystemCallError) -> FileStatus { try base.status(of: file) }
    func read(_ file: OpenFile, count: Int, at offset: UInt64) throws(SystemCallError) -> [UInt8] {
        try base.read(file, count: count, at: offset)
    }
    func write(_ file: OpenFile, _ bytes: ArraySlice<UInt8>) throws(SystemCallError) { try base.write(file, bytes) }
    func truncate(_ file: OpenFile, to length: UInt64) throws(SystemCallError) { try base.truncate(file, to: length) }
    func setPermissions(of file: OpenFile, to mode: UInt32) throws(SystemCallError) {
        try base.setPermissions(of: file, to: mode)
    }
    func lock(_ file: OpenFile, waiting: Bool) throws(SystemCallError) -> Bool { try base.lock(file, waiting: waiting) }
    func unlock(_ file: OpenFile) { base.unlock(file) }
    func status(atPath path: String, followingLinks: Bool) throws(SystemCallError) -> FileStatus? {
        try base.status(atPath: path, followingLinks: followingLinks)
    }
    func makeDirectory(_ path: String, mode: UInt32) throws(SystemCallError) {
        try base.makeDirectory(path, mode: mode)
    }
    func setPermissions(atPath path: String, to mode: UInt32) throws(SystemCallError) {
        try base.setPermissions(atPath: path, to: mode)
    }
    func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try base.rename(source, to: destination)
    }
    func link(_ source: String, to destination: String) throws(SystemCallError) {
        try base.link(source, to: destination)
    }
    func removeFile(_ path: String) throws(SystemCallError) { try base.removeFile(path) }
    func removeDirectory(_ path: String) throws(SystemCallError) { try base.removeDirectory(path) }
    func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] { try base.contentsOfDirectory(path) }
    func synchronizeDirectory(_ path: String) throws(SystemCallError) { try base.synchronizeDirectory(path) }
    func checkWritable(_ path: String) throws(SystemCallError) { try base.checkWritable(path) }
    func synchronizeAll() { base.synchronizeAll() }
    func currentUser() -> UInt32 { base.currentUser() }
}
