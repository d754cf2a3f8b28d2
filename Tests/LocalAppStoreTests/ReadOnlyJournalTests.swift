import Foundation
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// The store opened read-only (`LocalAppStoreConfiguration.readOnly`, for a directory this
/// process may not write): no lock, no owner lease, no compaction, nothing written; it reads
/// only complete changes, as the lock-free `refresh()` of every instance does, and follows a
/// writer across compactions; every write is refused naming the state directory.
@Suite(.timeLimit(.minutes(10))) struct ReadOnlyJournalTests {
    static func entry(_ id: String, finished: Bool) -> QueueEntry {
        QueueEntry(
            transaction: Transaction(
                transactionID: id, productID: TestCatalog.coins, productType: .consumable,
                payment: Payment(productID: TestCatalog.coins), state: .purchased,
                purchaseDate: Date(timeIntervalSince1970: 0)),
            accountID: "a", charged: true, finished: finished, pending: nil, owner: nil)
    }

    /// Buys one consumable in one change of three records (queued, charged, finished).
    static func buy(_ journal: StoreJournal) throws -> String {
        try journal.transact { state throws(LocalAppStoreError) in
            let id = state.allocateTransactionID()
            let records = [entry(id, finished: false), entry(id, finished: false), entry(id, finished: true)].map(
                JournalRecord.make)
            return (records, id)
        }.result
    }

    /// Every file under `directory` with its bytes.
    static func files(_ directory: URL) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(name).path
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            files[name] = isDirectory.boolValue ? [] : Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        return files
    }

    @Test func readsOnlyCompleteChangesAndWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let path = dir.stateDirectory.path
        let writer = try StoreJournal(directory: path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics())
        let ids = try (0..<3).map { _ in try Self.buy(writer) }
        // A change torn by a crash: its first line whole (saying more follow), the next cut.
        let change = try writer.encode(
            [Self.entry("99", finished: false), Self.entry("99", finished: true)].map(JournalRecord.make),
            asOneChange: true)
        let torn = change.prefix(change.count - 20)
        let handle = try FileHandle(forWritingTo: dir.journal)
        handle.seekToEndOfFile()
        handle.write(Data(torn))
        try handle.close()
        try FileManager.default.removeItem(atPath: path + "/store.lock")
        let before = try Self.files(dir.stateDirectory)

        let reader = try StoreJournal(
            directory: path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(), readOnly: true)
        #expect(reader.state.orderedEntries.map(\.id) == ids)
        #expect(reader.state.orderedEntries.allSatisfy { $0.finished })
        #expect(throws: StoreJournal.readOnlyError(path)) { _ = try Self.buy(reader) }
        #expect(try reader.refresh().isEmpty)
        // The torn tail stays for the next writer to cut; no lock file, no compaction.
        #expect(try Self.files(dir.stateDirectory) == before)
    }

    @Test func followsAWriterAcrossCompactionsSeeingEveryChangeWhole() throws {
        let dir = try TemporaryDirectory()
        let path = dir.stateDirectory.path
        let writer = try StoreJournal(
            directory: path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(), compactionSlack: 4)
        let reader = try StoreJournal(
            directory: path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(), readOnly: true)
        var bought: [String] = []
        for _ in 0..<30 {
            bought.append(try Self.buy(writer))
            _ = try reader.refresh()
            #expect(reader.state.orderedEntries.map(\.id) == bought)
            #expect(reader.state.orderedEntries.allSatisfy { $0.finished && $0.charged })
        }
        #expect(writer.metrics.compactions >= 5)
        #expect(reader.metrics.compactions == 0)
    }

    @Test func aStoreOpenedReadOnlyOnNothingMakesNothingAndRefusesToSell() async throws {
        let dir = try TemporaryDirectory()
        let store = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: try TestCatalog.load(), stateDirectory: dir.stateDirectory, clock: ManualClock(),
                initialLatencyMilliseconds: 0, readOnly: true))
        #expect(try await store.transactionManager.history().isEmpty)
        await store.synchronize()
        await #expect(throws: StoreError.systemError(StoreJournal.readOnlyError(dir.stateDirectory.path).description)) {
            _ = try await store.add(Payment(productID: TestCatalog.coins))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.stateDirectory.path))
    }
}
