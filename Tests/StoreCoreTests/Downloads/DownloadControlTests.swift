import Foundation
import Synchronization
import Testing

@testable import StoreCore

/// Pause and cancel reach a download that another engine (another process) is running, and
/// a configuration can leave downloads waiting until asked for.
@Suite(.timeLimit(.minutes(10)))
struct DownloadControlTests {
    @Test func anotherEngineOnTheSameDataPausesAndCancelsARunningDownload() async throws {
        let f = try await DownloadFixture()
        await f.backend.setContentGate(f.clock)
        let runner = try await f.makeStore(f.configuration())
        let id = try await f.buyLevels(runner, drivenTo: 30_000)
        let running = try #require(runner.downloads)

        // A second engine, as `storefront downloads pause ID` in another process.
        let other = Store(
            backend: f.backend, ledger: try FileLedger(path: f.dir.path("ledger.jsonl")),
            configuration: f.configuration())
        let remote = try #require(other.downloads)
        #expect(await remote.download(id: id)?.state == .active, "a download leased by a live engine shows as active")
        let paused = Mutex<Download?>(nil)
        Task {
            let d = try await remote.pause(id)
            paused.withLock { $0 = d }
        }
        // The remote side polls on the clock, so the clock moves until its answer is in.
        await f.drive { paused.withLock { $0 } != nil }
        let seen = try #require(paused.withLock { $0 })
        #expect(seen.state == .paused)
        #expect(await running.download(id: id)?.state == .paused)
        #expect(seen.bytesWritten >= 30_000)

        try await running.resume(id)
        try await f.drive(runner, id, toBytes: 60_000)
        let cancelled = Mutex<Download?>(nil)
        Task {
            let d = try await remote.cancel(id)
            cancelled.withLock { $0 = d }
        }
        await f.drive { cancelled.withLock { $0 } != nil }
        #expect(cancelled.withLock { $0 }?.state == .cancelled)
        #expect(await running.download(id: id)?.state == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: f.partialPath(id, "")))
        #expect(await f.backend.finished.isEmpty)
    }

    @Test func downloadsCanWaitUntilAskedFor() async throws {
        let f = try await DownloadFixture()
        var configuration = f.configuration()
        configuration.downloads?.startsAutomatically = false
        let store = try await f.makeStore(configuration)
        let manager = try #require(store.downloads)
        let t = try #require(await store.purchase("levels").transaction)
        for _ in 0..<50 { await Task.yield() }
        #expect(await manager.download(id: t.transactionID)?.state == .waiting)
        #expect(await f.backend.contentRequests.isEmpty)
        #expect(await f.backend.finished.isEmpty)

        try await manager.resume(t.transactionID)
        #expect(try await manager.waitUntilSettled(t.transactionID).state == .finished)
        #expect(await f.backend.finished == [t.transactionID])
    }
}
