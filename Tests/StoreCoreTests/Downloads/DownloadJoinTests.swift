import Foundation
import TestSupport
import Testing

@testable import StoreCore

/// A restore while a download is unfinished: the restored transaction joins the download
/// already under way instead of downloading the same content again from zero (the kill loops
/// once found up to 6 records and 76 extra full downloads in one run).
@Suite(.timeLimit(.minutes(10)))
struct DownloadJoinTests {
    /// A store on `f`, whose backend restores unfinished transactions, and its purchase of
    /// `levels`, whose download failed at 30,000 bytes.
    static func failedDownload(_ f: DownloadFixture) async throws -> (Store, StoreCore.Transaction) {
        await f.backend.setRestoresUnfinished(true)
        await f.backend.setContentFailsAt(30_000)
        let store = try await f.makeStore(f.configuration())
        let purchase = try #require(await store.purchase("levels").transaction)
        #expect(try await f.settle(store, purchase.transactionID).state == .failed)
        return (store, purchase)
    }

    @Test func aRestoreDuringAnUnfinishedDownloadContinuesItInsteadOfStartingAnother() async throws {
        let f = try await DownloadFixture()
        let (store, purchase) = try await Self.failedDownload(f)
        let requestsBefore = await f.backend.contentRequests.count

        await f.backend.setContentFailsAt(nil)
        let restored = try await store.restoreTransactions()
        let copy = try #require(restored.first { $0.productID == "levels" })
        let manager = try #require(store.downloads)
        #expect(await manager.downloads().count == 1, "the restore adds no second download of the same content")
        #expect(
            await manager.download(id: copy.transactionID)?.id == purchase.transactionID,
            "the restored transaction is served by the purchase's download")

        let done = try await f.settle(store, copy.transactionID)
        #expect(done.state == .finished)
        for (path, bytes) in f.content.files { #expect(f.installed(path) == Data(bytes), "\(path)") }
        let requests = await f.backend.contentRequests.dropFirst(requestsBefore)
        let resumedAt = try #require(requests.first { $0.path == "levels/001.json" }?.offset)
        #expect(resumedAt > 0, "it continued from its checkpoint, not from zero")
        #expect(requests.filter { $0.offset == 0 && $0.path == "levels/001.json" }.isEmpty)
        let finished = await f.backend.finished
        #expect(
            finished.contains(purchase.transactionID) && finished.contains(copy.transactionID),
            "both transactions are finished once the content is installed")
    }

    @Test func aJoinedTransactionLeftUnfinishedByACrashIsFinishedAtTheNextStart() async throws {
        let f = try await DownloadFixture()
        let first = try await Self.failedDownload(f).0
        let copy = try #require(try await first.restoreTransactions().first { $0.productID == "levels" })
        // The joined download runs again, fails again, and the process dies before it is retried.
        #expect(try await f.settle(first, copy.transactionID).state == .failed)
        await f.die(first)

        await f.backend.setContentFailsAt(nil)
        let second = try await f.makeStore(f.configuration())
        let resumed = try await f.settle(second, copy.transactionID, reaching: .finished)
        let all = await second.downloads?.downloads() ?? []
        #expect(resumed.state == .finished, "\(resumed) of \(all)")
        await f.drive { await f.backend.finished.contains(copy.transactionID) }
        #expect(await second.downloads?.downloads().count == 1)
    }
}
