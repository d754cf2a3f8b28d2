import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// The kill loops once left one lease file in `store/owners` for good: a process killed
/// between creating its lease under the draft name (`TOKEN.tmp`) and renaming it to
/// `TOKEN.lock` left a draft that no sweep removed. Drafts nobody holds are swept now, and a
/// draft a sweeper took in the instant before it was locked makes the newcomer try a new token.
@Suite(.timeLimit(.minutes(10))) struct OwnerLeaseDraftTests {
    func leases(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.stateDirectory.appendingPathComponent("owners").path)
            .sorted()
    }

    @Test func aDraftLeftByAKilledProcessIsSweptByTheNextStart() throws {
        let dir = try TemporaryDirectory()
        let owners = dir.stateDirectory.appendingPathComponent("owners")
        try FileManager.default.createDirectory(at: owners, withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: owners.appendingPathComponent("KILLED-TOKEN.tmp").path, contents: nil))
        let store = try makeStore(dir)
        let names = try leases(dir)
        #expect(names.count == 1, "\(names)")
        #expect(names.allSatisfy { $0.hasSuffix(".lock") }, "the dead draft is gone: \(names)")
        _ = store
    }

    @Test func aDraftSomeoneHoldsIsKept() throws {
        let dir = try TemporaryDirectory()
        let owners = dir.stateDirectory.appendingPathComponent("owners")
        try FileManager.default.createDirectory(at: owners, withIntermediateDirectories: true)
        let fs = POSIXFileSystem()
        // A newborn instance of another process: its draft is locked until it is renamed.
        let newborn = try #require(try fs.tryLease(owners.appendingPathComponent("NEWBORN.tmp").path))
        defer { fs.release(newborn) }
        let store = try makeStore(dir)
        #expect(try leases(dir).contains("NEWBORN.tmp"))
        _ = store
    }

    @Test func aDraftTakenByASweeperBeforeItsRenameMakesTheStoreTryAnotherToken() throws {
        let dir = try TemporaryDirectory()
        _ = try makeStore(dir)  // the journal exists: the first rename of the next start is its lease's
        let disk = FaultInjectingFileSystem()
        // The sweeper removed the draft: the rename finds nothing.
        disk.fail(.rename, onCall: 1, with: .noSuchFile)
        let store = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: TestCatalog.load(), stateDirectory: dir.stateDirectory, clock: ManualClock(),
                initialLatencyMilliseconds: 0
            ).keeping(through: disk))
        let names = try leases(dir)
        #expect(names.filter { $0.hasSuffix(".lock") }.count == 1, "\(names)")
        #expect(disk.calls(of: .rename) >= 2)
        _ = store
    }
}
