import Foundation
@testable import Vault

/// The real file system, except that `sync` fails with EIO from its `failSyncAt`-th call on
/// (and, once failed, keeps failing, as a dying disk would).
final class FailingFileSystem: VaultFileSystem, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var syncs = 0
    private let failSyncAt: Int
    private let real = PosixFileSystem()

    init(failSyncAt: Int) { self.failSyncAt = failSyncAt }

    var syncCalls: Int { lock.withLock { syncs } }

    func sync(_ fd: Int32) throws(SystemCallError) {
        let n = lock.withLock { syncs += 1; return syncs }
        if n >= failSyncAt { throw SystemCallError("fdatasync", code: EIO) }
        try real.sync(fd)
    }

    func open(_ p: String, flags: Int32, mode: UInt32) throws(SystemCallError) -> Int32 { try real.open(p, flags: flags, mode: mode) }
    func close(_ fd: Int32) { real.close(fd) }
    func status(_ fd: Int32) throws(SystemCallError) -> FileStatus { try real.status(fd) }
    func linkStatus(_ p: String) throws(SystemCallError) -> FileStatus? { try real.linkStatus(p) }
    func read(_ fd: Int32, count: Int, at o: UInt64) throws(SystemCallError) -> [UInt8] { try real.read(fd, count: count, at: o) }
    func write(_ fd: Int32, _ b: ArraySlice<UInt8>, at o: UInt64) throws(SystemCallError) { try real.write(fd, b, at: o) }
    func syncDirectory(_ p: String) throws(SystemCallError) { try real.syncDirectory(p) }
    func truncate(_ fd: Int32, to l: UInt64) throws(SystemCallError) { try real.truncate(fd, to: l) }
    func setMode(_ fd: Int32, _ m: UInt32) throws(SystemCallError) { try real.setMode(fd, m) }
    func rename(_ a: String, to b: String) throws(SystemCallError) { try real.rename(a, to: b) }
    func remove(_ p: String) throws(SystemCallError) { try real.remove(p) }
    func makeDirectory(_ p: String, mode: UInt32) throws(SystemCallError) { try real.makeDirectory(p, mode: mode) }
    func lockExclusive(_ fd: Int32) throws(SystemCallError) { try real.lockExclusive(fd) }
    func unlock(_ fd: Int32) { real.unlock(fd) }
    func currentUser() -> UInt32 { real.currentUser() }
}
