import Catalog
import Foundation
import StoreCore
import StoreTesting
import Synchronization
import TestSupport
import Testing

@testable import LocalAppStore

/// The local App Store serves hosted content from the catalog's content sidecar: from a byte
/// offset, at the `bandwidth` setting, failing at `fail-downloads-at`.
@Suite(.timeLimit(.minutes(10)))
struct ContentServingTests {
    /// A catalog file `Test.storekit` with `Test.content/com.test.pro/` holding two files.
    struct Fixture {
        let dir: TemporaryDirectory
        let first = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let second = Array("the second file\n".utf8) + (0..<984).map { UInt8(truncatingIfNeeded: $0) }
        var catalogURL: URL { dir.url.appendingPathComponent("Test.storekit") }
        var contentDirectory: URL { dir.url.appendingPathComponent("Test.content/\(TestCatalog.pro)") }

        init() throws {
            dir = try TemporaryDirectory()
            try Data(TestCatalog.json().utf8).write(to: catalogURL)
            try FileManager.default.createDirectory(
                at: contentDirectory.appendingPathComponent("data"), withIntermediateDirectories: true)
            try Data(first).write(to: contentDirectory.appendingPathComponent("data/first.bin"))
            try Data(second).write(to: contentDirectory.appendingPathComponent("second.txt"))
            let files: [[String: Any]] = try [("data/first.bin", first), ("second.txt", second)].map { path, bytes in
                [
                    "path": path, "size": bytes.count,
                    "sha256": try FileHash.sha256(contentDirectory.appendingPathComponent(path)),
                ]
            }
            let manifest: [String: Any] = ["version": 1, "contentVersion": "7", "files": files]
            try JSONSerialization.data(withJSONObject: manifest).write(
                to: contentDirectory.appendingPathComponent("manifest.json"))
        }

        func catalog() throws -> StoreKitConfiguration {
            try StoreKitConfiguration.load(contentsOf: catalogURL, contentDigester: ContentDigest.sha256)
        }

        func store(clock: ManualClock = ManualClock(), bandwidth: String = "0") async throws -> LocalAppStore {
            let store = try makeStore(dir, catalog: try catalog(), clock: clock)
            try await store.settings.set(name: "bandwidth", value: bandwidth)
            return store
        }
    }

    static func collect(
        _ stream: AsyncThrowingStream<[UInt8], any Error>
    ) async -> (bytes: [UInt8], error: (any Error)?) {
        var bytes: [UInt8] = []
        do {
            for try await chunk in stream { bytes += chunk }
            return (bytes, nil)
        } catch {
            return (bytes, error)
        }
    }

    @Test func theManifestComesFromTheSidecarAndProductsSayTheyHaveDownloads() async throws {
        let f = try Fixture()
        let store = try await f.store()
        let manifest = try #require(try await store.contentManifest(productID: TestCatalog.pro))
        #expect(manifest.version == "7")
        #expect(manifest.files.map(\.path) == ["data/first.bin", "second.txt"])
        #expect(
            manifest.files[0].sha256
                == (try FileHash.sha256(f.contentDirectory.appendingPathComponent("data/first.bin"))))
        #expect(try await store.contentManifest(productID: TestCatalog.coins) == nil)
        let products = try await store.products(identifiers: [TestCatalog.pro, TestCatalog.coins]).products
        #expect(products.first { $0.id == TestCatalog.pro }?.hasDownloads == true)
        #expect(products.first { $0.id == TestCatalog.coins }?.hasDownloads == false)
    }

    @Test func bytesAreServedFromAnOffset() async throws {
        let f = try Fixture()
        let store = try await f.store()
        let all = await Self.collect(
            store.contentBytes(productID: TestCatalog.pro, version: "7", path: "data/first.bin", offset: 0))
        #expect(all.error == nil)
        #expect(all.bytes == f.first)
        let tail = await Self.collect(
            store.contentBytes(productID: TestCatalog.pro, version: "7", path: "data/first.bin", offset: 1234))
        #expect(tail.bytes == Array(f.first[1234...]))
        let wrong = await Self.collect(
            store.contentBytes(productID: TestCatalog.pro, version: "6", path: "data/first.bin", offset: 0))
        #expect(wrong.error as? DownloadError == .noContent(productID: TestCatalog.pro))
        let beyond = await Self.collect(
            store.contentBytes(productID: TestCatalog.pro, version: "7", path: "second.txt", offset: 5000))
        #expect((beyond.error as? DownloadError)?.description.contains("outside second.txt") == true)
    }

    @Test func bandwidthPacesChunksThroughTheStoreClock() async throws {
        let f = try Fixture()
        let clock = ManualClock()
        // 20480 B/s: 1024-byte chunks, each taking 50 ms of the store's clock.
        let store = try await f.store(clock: clock, bandwidth: "20480")
        let arrived = Mutex(0)
        let task = Task {
            var iterator = store.contentBytes(
                productID: TestCatalog.pro, version: "7", path: "data/first.bin", offset: 0
            ).makeAsyncIterator()
            let chunk = try await iterator.next()
            arrived.withLock { $0 = chunk?.count ?? -1 }
            return chunk
        }
        await clock.waitForSleepers()
        #expect(arrived.withLock { $0 } == 0)
        clock.advance(by: 0.049)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: 0.001)
        let chunk = try await task.value
        #expect(chunk == Array(f.first[0..<1024]))
    }

    @Test func downloadsFailAtTheChosenShareOfTheWholeContent() async throws {
        let f = try Fixture()
        let store = try await f.store()
        try await store.settings.set(name: "fail-downloads-at", value: "50")
        #expect(try await store.settings.all().first { $0.name == "fail-downloads-at" }?.value == "50")
        // 50% of 4000 bytes is byte 2000, inside the first file.
        let first = await Self.collect(
            store.contentBytes(productID: TestCatalog.pro, version: "7", path: "data/first.bin", offset: 0))
        #expect(first.bytes == Array(f.first[0..<2000]))
        #expect((first.error as? DownloadError)?.description.contains("failed the download at 50%") == true)
        let second = await Self.collect(
            store.contentBytes(productID: TestCatalog.pro, version: "7", path: "second.txt", offset: 0))
        #expect(second.bytes.isEmpty && second.error != nil)

        try await store.settings.set(name: "fail-downloads-at", value: "off")
        let again = await Self.collect(
            store.contentBytes(productID: TestCatalog.pro, version: "7", path: "data/first.bin", offset: 0))
        #expect(again.error == nil && again.bytes == f.first)
    }

    @Test func theNewSettingsValidateTheirValues() async throws {
        let f = try Fixture()
        let store = try makeStore(f.dir, catalog: try f.catalog())
        #expect(try await store.settings.all().first { $0.name == "bandwidth" }?.value == "1500000")
        await #expect(throws: LocalAppStoreError.self) {
            try await store.settings.set(name: "bandwidth", value: "fast")
        }
        await #expect(throws: LocalAppStoreError.self) { try await store.settings.set(name: "bandwidth", value: "-1") }
        await #expect(throws: LocalAppStoreError.self) {
            try await store.settings.set(name: "fail-downloads-at", value: "100")
        }
        try await store.settings.set(name: "fail-downloads-at", value: "25%")
        #expect(try await store.settings.current().failDownloadsAtPercent == 25)
        try await store.settings.set(name: "bandwidth", value: "0")
        #expect(try await store.settings.current().bandwidthBytesPerSecond == 0)
    }

    @Test func aFileChangedBehindTheManifestIsRejectedWhenTheCatalogLoads() throws {
        let f = try Fixture()
        var bytes = f.first
        bytes[2999] ^= 1
        try Data(bytes).write(to: f.contentDirectory.appendingPathComponent("data/first.bin"))
        do throws(CatalogError) {
            _ = try StoreKitConfiguration.load(contentsOf: f.catalogURL, contentDigester: ContentDigest.sha256)
            Issue.record("expected a digest mismatch")
        } catch {
            #expect(error.file == f.contentDirectory.appendingPathComponent("manifest.json").path)
            #expect(error.path == "$.files[0].sha256")
            #expect(error.problem.contains("data/first.bin has SHA-256"))
        }
    }

    @Test func theEngineDownloadsFromTheLocalStoreAndFinishesOnlyAfterwards() async throws {
        let f = try Fixture()
        let store = try await f.store()
        try await store.settings.set(name: "fail-downloads-at", value: "60")
        let data = f.dir.url.appendingPathComponent("data")
        let engine = Store(
            backend: store, ledger: try FileLedger(path: f.dir.url.appendingPathComponent("ledger.jsonl").path),
            configuration: StoreConfiguration(
                downloads: DownloadConfiguration(dataDirectory: data, checkpointBytes: 1024)))
        await engine.start()
        let manager = try #require(engine.downloads)
        let t = try #require(await engine.purchase(TestCatalog.pro).transaction)
        let failed = try await manager.waitUntilSettled(t.transactionID)
        #expect(failed.state == .failed)
        #expect(failed.bytesWritten == 2400)
        #expect(try await store.unfinishedTransactions().map(\.transactionID) == [t.transactionID])
        #expect(try await engine.isPurchased(TestCatalog.pro))

        try await store.settings.set(name: "fail-downloads-at", value: "off")
        try await manager.resume(t.transactionID)
        let done = try await manager.waitUntilSettled(t.transactionID)
        #expect(done.state == .finished)
        let installed = data.appendingPathComponent("Content/\(TestCatalog.pro)/7")
        #expect(
            FileManager.default.contents(atPath: installed.appendingPathComponent("data/first.bin").path)
                == Data(f.first))
        #expect(
            FileManager.default.contents(atPath: installed.appendingPathComponent("second.txt").path) == Data(f.second))
        #expect(try await store.unfinishedTransactions().isEmpty)
    }
}
