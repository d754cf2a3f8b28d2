import Foundation
import Synchronization
import TestSupport
import Testing

@testable import StoreCore

/// `PurchaseOptions`: a purchase's own verifier and observer (DEStoreKitManager's per-request
/// callbacks) and waiting for its content.
@Suite(.timeLimit(.minutes(10)))
struct PurchaseOptionsTests {
    @Test func aPurchaseIsVerifiedByItsOwnVerifierOthersByTheConfiguration() async throws {
        let dir = try TemporaryDirectory()
        let backend = QueueBackend()
        let store = Store(backend: backend, ledger: try FileLedger(path: dir.path("ledger.jsonl")))
        let rejected = await store.purchase(
            "pro",
            options: PurchaseOptions(
                verifier: FixedVerifier(.invalid(reason: "not ours"))))
        #expect(rejected == .failed(.verificationFailed("not ours"), rejected.transaction))
        #expect(try await store.isPurchased("pro") == false)
        // The configuration's verifier (accepting) still decides the next purchase.
        #expect(await store.purchase("pro").state == "purchased")
        #expect(try await store.isPurchased("pro"))
    }

    @Test func aPurchasesOwnObserverHearsThatPurchaseOnly() async throws {
        let dir = try TemporaryDirectory()
        let store = Store(backend: QueueBackend(), ledger: try FileLedger(path: dir.path("ledger.jsonl")))
        let mine = RecordingObserver()
        let theirs = RecordingObserver()
        let everyone = RecordingObserver()
        store.addObserver(everyone)
        async let a = store.purchase("coins", options: PurchaseOptions(observer: mine))
        async let b = store.purchase("coins", options: PurchaseOptions(observer: theirs))
        let (ra, rb) = await (a, b)
        let ta = try #require(ra.transaction)
        let tb = try #require(rb.transaction)
        #expect(mine.log == ["finished:\(ta.transactionID)"])
        #expect(theirs.log == ["finished:\(tb.transactionID)"])
        #expect(Set(everyone.log) == ["products:1", "finished:\(ta.transactionID)", "finished:\(tb.transactionID)"])
        // Once the purchase ended, its observer hears nothing more.
        _ = await store.purchase("coins")
        #expect(mine.log.count == 1 && theirs.log.count == 1)
    }

    @Test func anUnverifiedPurchaseReachesItsOwnObserver() async throws {
        let dir = try TemporaryDirectory()
        let store = Store(backend: QueueBackend(), ledger: try FileLedger(path: dir.path("ledger.jsonl")))
        let mine = RecordingObserver()
        let result = await store.purchase(
            "pro",
            options: PurchaseOptions(
                verifier: FixedVerifier(.unableToComplete(reason: "offline")), observer: mine))
        let t = try #require(result.transaction)
        #expect(result.state == "unverified")
        #expect(mine.log == ["unverified:\(t.transactionID)"])
    }

    @Test func waitingForContentReturnsOnlyOnceItIsInstalled() async throws {
        let f = try await DownloadFixture()
        await f.backend.setContentGate(f.clock)  // every chunk waits a second of the manual clock
        let center = NotificationCenter()
        let store = try await f.makeStore(f.configuration(center: center))
        let mine = RecordingObserver()
        let downloaded = Mutex<[(String?, String?, String?)]>([])
        let token = center.addObserver(forName: .storeDownloadFinished, object: nil, queue: nil) { note in
            downloaded.withLock {
                $0.append((note.storeTransactionID, note.storeProductID, note.storeTransaction?.transactionID))
            }
        }
        defer { center.removeObserver(token) }

        let purchase = Task {
            await store.purchase("levels", options: PurchaseOptions(waitsForContent: true, observer: mine))
        }
        // The purchase is recorded long before its content is in; the call waits for the content.
        await f.drive { (try? await store.history().count) == 1 }
        let id = try #require(try await store.history().first?.transactionID)
        #expect(await store.downloads?.download(id: id)?.state != .finished)
        await f.drive { await store.downloads?.download(id: id)?.state == .finished }
        let result = await purchase.value
        #expect(result.state == "purchased")
        #expect(f.installed("README.txt") == Data("Twenty levels.\n".utf8))
        #expect(
            mine.log.filter { !$0.hasPrefix("downloadUpdated:") } == ["finished:\(id)", "download:\(id)"],
            "its own observer hears its download too")
        // The download's notification names the transaction and the product, and carries the transaction.
        #expect(downloaded.withLock { $0 }.map { [$0.0, $0.1, $0.2] } == [[id, "levels", id]])
    }

    @Test func withoutWaitingForContentThePurchaseReturnsWhileItDownloads() async throws {
        let f = try await DownloadFixture()
        await f.backend.setContentGate(f.clock)
        let store = try await f.makeStore(f.configuration())
        let result = await store.purchase("levels")
        let t = try #require(result.transaction)
        #expect(result.state == "purchased")
        #expect(await store.downloads?.download(id: t.transactionID)?.state != .finished)
        let download = try await f.settle(store, t.transactionID)
        #expect(download.state == .finished)
    }
}
