import Foundation
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// The store's journal on a failing disk (SystemIO's fake): each failure is a
/// `LocalAppStoreError.io` naming the journal and the call, and the change is not applied.
@Suite(.timeLimit(.minutes(10))) struct DiskFaultTests {
    func makeStore(_ dir: TemporaryDirectory, _ disk: FaultInjectingFileSystem) throws -> LocalAppStore {
        try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: TestCatalog.load(), stateDirectory: dir.stateDirectory, clock: ManualClock(),
                initialLatencyMilliseconds: 0
            ).keeping(through: disk))
    }

    @Test func aFullDiskOrAFailedFsyncFailsTheChangeNamingTheJournal() async throws {
        let dir = try TemporaryDirectory()
        let disk = FaultInjectingFileSystem()
        let store = try makeStore(dir, disk)
        let journal = dir.journal.path

        disk.fail(.write, with: .noSpace)
        await #expect(throws: LocalAppStoreError.io(path: journal, reason: "write failed: \(Errno.noSpace)")) {
            try await store.settings.set(name: "ask-to-buy", value: "on")
        }
        #expect(try await store.settings.current().askToBuy == false)

        disk.fail(.synchronize, with: .ioError)
        let error = await #expect(throws: LocalAppStoreError.self) {
            try await store.settings.set(name: "ask-to-buy", value: "on")
        }
        #expect(error == .io(path: journal, reason: "fdatasync failed: \(Errno.ioError)"))
        #expect(error?.description == "\(journal): fdatasync failed: Input/output error")

        try await store.settings.set(name: "latency", value: "5")
        #expect(try await store.settings.current().latencyMilliseconds == 5)
    }

    @Test func aStateDirectoryThatCannotBeCreatedIsAnIOErrorNamingIt() throws {
        let dir = try TemporaryDirectory()
        let disk = FaultInjectingFileSystem()
        disk.denyWrites(under: dir.url.path)
        #expect(
            throws: LocalAppStoreError.io(path: dir.stateDirectory.path, reason: "mkdir failed: \(Errno.accessDenied)")
        ) {
            try makeStore(dir, disk)
        }
    }
}
