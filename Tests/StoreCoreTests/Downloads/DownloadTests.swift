import Foundation
import Synchronization
import TestSupport
import Testing

@testable import StoreCore

@Suite(.timeLimit(.minutes(10)))
struct DownloadTests {
    @Test func purchaseDownloadsVerifiesInstallsAndOnlyThenFinishes() async throws {
        let f = try await DownloadFixture()
        await f.backend.setContentGate(f.clock)
        let center = NotificationCenter()
        let posted = Mutex<[Notification.Name]>([])
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { n in
            if n.storeDownload != nil { posted.withLock { $0.append(n.name) } }
        }
        defer { center.removeObserver(token) }
        let store = try await f.makeStore(f.configuration(center: center))
        let observer = RecordingObserver()
        store.addObserver(observer)
        let events = store.events()

        let result = await store.purchase("levels")
        let t = try #require(result.transaction)
        #expect(result.state == "purchased")
        // Owned at once; the store is not told to finish until the content is installed.
        #expect(try await store.isPurchased("levels"))
        #expect(await f.backend.finished.isEmpty)
        #expect(f.installed("README.txt") == nil)

        let download = try await f.settle(store, t.transactionID)
        #expect(download.state == .finished)
        #expect(download.bytesWritten == f.content.manifest.totalBytes)
        #expect(download.fraction == 1)
        #expect(download.contentPath == f.dataDirectory.appendingPathComponent("Content/levels/1.2").path)
        for (path, bytes) in f.content.files {
            #expect(f.installed(path) == Data(bytes), "\(path)")
        }
        #expect(await f.backend.finished == [t.transactionID])
        let downloadCalls = observer.log.filter { $0.hasPrefix("download") }
        #expect(downloadCalls.first == "downloadUpdated:waiting")
        #expect(downloadCalls.contains("downloadUpdated:active"))
        #expect(downloadCalls.last == "download:\(t.transactionID)")
        #expect(posted.withLock { $0 }.contains(.storeDownloadUpdated))
        #expect(posted.withLock { $0 }.last == .storeDownloadFinished)
        // Nothing is left behind in the partial area.
        #expect(!FileManager.default.fileExists(atPath: f.partialPath(t.transactionID, "")))

        var iterator = events.makeAsyncIterator()
        var fractions: [Double] = []
        while let event = await iterator.next() {
            if case .downloadUpdated(let d) = event { fractions.append(d.fraction) }
            if case .downloadFinished = event { break }
        }
        #expect(fractions.count > 3)
        #expect(fractions == fractions.sorted())
    }

    @Test func rateAndTimeRemainingComeFromTheInjectedClock() async throws {
        let f = try await DownloadFixture()
        await f.backend.setContentGate(f.clock)
        let store = try await f.makeStore(f.configuration())
        let events = store.events()
        let t = try #require(await store.purchase("levels").transaction)
        _ = try await f.settle(store, t.transactionID)
        var iterator = events.makeAsyncIterator()
        var seen: Download?
        while let event = await iterator.next() {
            if case .downloadUpdated(let d) = event, d.state == .active, d.bytesWritten > 40_000 {
                seen = d
                break
            }
        }
        let d = try #require(seen)
        // One 4096-byte chunk per second of the manual clock.
        #expect(abs(d.bytesPerSecond - 4096) < 1)
        let remaining = try #require(d.timeRemaining)
        #expect(abs(remaining - Double(d.totalBytes - d.bytesWritten) / 4096) < 0.01)
    }

    @Test func pauseKeepsTheBytesAndResumeContinuesFromTheDurableOffset() async throws {
        let f = try await DownloadFixture()
        await f.backend.setContentGate(f.clock)
        let store = try await f.makeStore(f.configuration())
        let manager = try #require(store.downloads)
        let observer = RecordingObserver()
        store.addObserver(observer)
        let id = try await f.buyLevels(store, drivenTo: 50_000)
        try await manager.pause(id)
        let paused = try await f.settle(store, id)
        #expect(paused.state == .paused)
        #expect(paused.bytesWritten >= 50_000 && paused.bytesWritten < paused.totalBytes)
        #expect(observer.log.contains("downloadPaused:\(id)"))
        #expect(await f.backend.finished.isEmpty)
        let requestsBefore = await f.backend.contentRequests.count

        try await manager.resume(id)
        let done = try await f.settle(store, id)
        #expect(done.state == .finished)
        let resumed = await f.backend.contentRequests[requestsBefore]
        #expect(resumed == ContentRequest(path: "levels/001.json", offset: paused.bytesWritten))
        #expect(f.installed("levels/001.json") == Data(f.content.files["levels/001.json"] ?? []))
        #expect(await f.backend.finished == [id])
    }

    @Test func cancelDeletesThePartialBytesAndLeavesTheTransactionRetryable() async throws {
        let f = try await DownloadFixture()
        await f.backend.setContentGate(f.clock)
        let store = try await f.makeStore(f.configuration())
        let manager = try #require(store.downloads)
        let id = try await f.buyLevels(store, drivenTo: 20_000)

        try await manager.cancel(id)
        let cancelled = try await f.settle(store, id)
        #expect(cancelled.state == .cancelled)
        #expect(cancelled.bytesWritten == 0)
        #expect(!FileManager.default.fileExists(atPath: f.partialPath(id, "")))
        #expect(await f.backend.finished.isEmpty)
        #expect(try await store.isPurchased("levels"))
        #expect(try await store.unfinishedTransactions().map(\.transactionID) == [id])

        await manager.retryDownloads()
        let done = try await f.settle(store, id)
        #expect(done.state == .finished)
        #expect(await f.backend.contentRequests.last?.offset == 0)
        #expect(await f.backend.finished == [id])
    }

    @Test func aDownloadInterruptedByDeathResumesFromItsLastCheckpointOnTheNextStart() async throws {
        let f = try await DownloadFixture()
        // Let it pass two checkpoints, then "die": the first engine never runs again.
        let (first, id) = try await f.buyLevelsAndTransfer(steps: 20)
        let written = try #require(await first.downloads?.download(id: id)?.bytesWritten)
        #expect(written > 16_384 * 2)
        await f.die(first)
        await f.backend.setContentGate(f.clock)

        let second = try await f.makeStore(f.configuration())
        let done = try await f.settle(second, id, reaching: .finished)
        #expect(done.state == .finished)
        let resumedAt = try #require(await f.backend.contentRequests.last { $0.path == "levels/001.json" }?.offset)
        #expect(resumedAt > 0 && resumedAt <= written && resumedAt % 16_384 == 0)
        #expect(f.installed("levels/001.json") == Data(f.content.files["levels/001.json"] ?? []))
        #expect(await f.backend.finished == [id])
    }

    @Test func aCorruptedPartialFileIsDetectedAndDownloadedAgain() async throws {
        let f = try await DownloadFixture()
        let (first, id) = try await f.buyLevelsAndTransfer(steps: 30)
        await f.die(first)

        // Flip one byte inside the durable part of the partial file.
        let partial = f.partialPath(id, "levels/001.json")
        var bytes = try #require(FileManager.default.contents(atPath: partial))
        #expect(bytes.count > 20_000)
        bytes[10_000] ^= 0x55
        try bytes.write(to: URL(fileURLWithPath: partial))

        await f.backend.setContentGate(nil)
        let second = try await f.makeStore(f.configuration())
        let done = try await f.settle(second, id, reaching: .finished)
        #expect(done.state == .finished)
        #expect(await f.backend.contentRequests.last { $0.path == "levels/001.json" }?.offset == 0)
        #expect(f.installed("levels/001.json") == Data(f.content.files["levels/001.json"] ?? []))
    }

    @Test func aChecksumMismatchFailsClearlyInstallsNothingAndKeepsTheTransactionOpen() async throws {
        let f = try await DownloadFixture()
        await f.backend.corruptServedFile("levels", "levels/002.json")
        let store = try await f.makeStore(f.configuration())
        let t = try #require(await store.purchase("levels").transaction)
        let failed = try await f.settle(store, t.transactionID)
        #expect(failed.state == .failed)
        guard case .checksumMismatch(let file, let expected, _)? = failed.error else {
            Issue.record("expected a checksum mismatch, got \(String(describing: failed.error))")
            return
        }
        #expect(file == "levels/002.json")
        #expect(expected == f.content.manifest.files[1].sha256)
        #expect(failed.error?.description.contains("SHA-256 mismatch") == true)
        #expect(f.installed("levels/001.json") == nil)
        #expect(try await store.isPurchased("levels"))
        #expect(await f.backend.finished.isEmpty)
    }

    @Test func aFailedDownloadIsRetriedOnTheNextStartAndThenFinishesTheTransaction() async throws {
        let f = try await DownloadFixture()
        await f.backend.setContentFailsAt(30_000)
        let first = try await f.makeStore(f.configuration())
        let t = try #require(await first.purchase("levels").transaction)
        let failed = try await f.settle(first, t.transactionID)
        #expect(failed.state == .failed)
        #expect(failed.error == .transferFailed("simulated failure"))
        #expect(await f.backend.finished.isEmpty)
        await f.backend.detach()
        await first.stop()

        await f.backend.setContentFailsAt(nil)
        let second = try await f.makeStore(f.configuration())
        let done = try await f.settle(second, t.transactionID, reaching: .finished)
        #expect(done.state == .finished)
        // Resumed from the checkpoint before the failure, not from zero.
        #expect(await f.backend.contentRequests.last { $0.path == "levels/001.json" }?.offset == 32_768)
        #expect(await f.backend.finished == [t.transactionID])
    }

    @Test func restoredProductsDownloadTheirContentOnANewDevice() async throws {
        let f = try await DownloadFixture()
        let first = try await f.makeStore(f.configuration())
        let t = try #require(await first.purchase("levels").transaction)
        #expect(try await f.settle(first, t.transactionID).state == .finished)
        await f.backend.detach()
        await first.stop()

        let newDevice = f.dir.url.appendingPathComponent("device2")
        let second = try await f.makeStore(f.configuration(data: newDevice), ledger: "ledger2.jsonl")
        let restored = try await second.restoreTransactions()
        let r = try #require(restored.first)
        let done = try await f.settle(second, r.transactionID)
        #expect(done.state == .finished)
        #expect(f.installed("levels/002.json", data: newDevice) == Data(f.content.files["levels/002.json"] ?? []))
        #expect(await f.backend.finished.contains(r.transactionID))

        // On the first device the same content is already installed: nothing is fetched.
        let requests = await f.backend.contentRequests.count
        let third = try await f.makeStore(f.configuration(), ledger: "ledger3.jsonl")
        let again = try #require(try await third.restoreTransactions().first)
        #expect(try await f.settle(third, again.transactionID).state == .finished)
        #expect(await f.backend.contentRequests.count == requests)
    }

    @Test func productsWithoutContentFinishAtOnce() async throws {
        let f = try await DownloadFixture()
        let store = try await f.makeStore(f.configuration())
        let t = try #require(await store.purchase("pro").transaction)
        #expect(await f.backend.finished == [t.transactionID])
        #expect(await store.downloads?.downloads().isEmpty == true)
    }

    @Test func anUnsafeManifestPathIsRejected() async throws {
        let f = try await DownloadFixture()
        var evil = f.otherContent
        evil.manifest = ContentManifest(
            productID: "stickers", version: "3",
            files: [
                ContentFile(path: "../../escape.txt", size: 1, sha256: String(repeating: "0", count: 64))
            ])
        await f.backend.setContent(evil)
        let store = try await f.makeStore(f.configuration())
        let t = try #require(await store.purchase("stickers").transaction)
        let d = try await f.settle(store, t.transactionID, reaching: .failed)
        #expect(d.error?.description.contains("\"../../escape.txt\"") == true)
        #expect(!FileManager.default.fileExists(atPath: f.dir.url.appendingPathComponent("escape.txt").path))
    }

    @Test func unknownDownloadsAreAClearError() async throws {
        let f = try await DownloadFixture()
        let store = try await f.makeStore(f.configuration())
        await #expect(throws: DownloadError.unknownDownload("42")) { try await store.downloads?.pause("42") }
    }
}
