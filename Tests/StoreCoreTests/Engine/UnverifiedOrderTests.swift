import Foundation
import Synchronization
import TestSupport
import Testing

@testable import StoreCore

/// A purchase whose verification could not complete: charged, kept, never a failure; listed,
/// retried and removed through `Store` (RNInAppPurchaseModule's `iapUnverifyOrdersArray` and
/// `removePurchase`).
@Suite(.timeLimit(.minutes(10)))
struct UnverifiedOrderTests {
    let engine: QueueEngine
    var backend: QueueBackend { engine.backend }
    let verifier = FixedVerifier(.unableToComplete(reason: "server down"))
    let center = NotificationCenter()
    let store: Store

    init() throws {
        engine = try QueueEngine()
        store = try engine.store(StoreConfiguration(verifier: verifier, notificationCenter: center))
    }

    @Test func itIsItsOwnOutcomeAndEventNeverAFailure() async throws {
        let observer = RecordingObserver()
        store.addObserver(observer)
        let names = Mutex<[Notification.Name]>([])
        let kept = Mutex<UnverifiedOrder?>(nil)
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { note in
            names.withLock { $0.append(note.name) }
            if let order = note.storeUnverifiedOrder { kept.withLock { $0 = order } }
        }
        defer { center.removeObserver(token) }

        let result = await store.purchase("pro")
        guard case .unverified(let order) = result else {
            Issue.record("expected .unverified, got \(result)")
            return
        }
        #expect(order.lastFailure == "server down")
        #expect(order.receipt == Data("receipt".utf8), "kept with the receipt of its time")
        #expect(observer.log == ["products:1", "unverified:\(order.transaction.transactionID)"], "never failed")
        #expect(names.withLock { $0 }.contains(.storePaymentTransactionUnverified))
        #expect(!names.withLock { $0 }.contains(.storePaymentTransactionFailed))
        #expect(kept.withLock { $0 } == order)
        #expect(await backend.queue[order.transaction.transactionID] != nil, "unfinished at the store")
        #expect(try await store.isPurchased("pro") == false, "not delivered before it is verified")
    }

    @Test func itIsListedRetriedAndDeliveredOnceVerified() async throws {
        let first = await store.purchase("pro")
        let id = try #require(first.transaction?.transactionID)
        #expect(try await store.unverifiedOrders().map(\.transaction.transactionID) == [id])

        guard case .unverified(let again) = try await store.retryUnverifiedOrder(transactionID: id) else {
            Issue.record("still unverifiable, so still unverified")
            return
        }
        #expect(again.attempts == 2)

        verifier.set(.valid)
        #expect(try await store.retryUnverifiedOrder(transactionID: id) == .purchased(try #require(first.transaction)))
        #expect(try await store.unverifiedOrders().isEmpty)
        #expect(await backend.finished == [id])
        #expect(try await store.isPurchased("pro"))
    }

    @Test func aRejectedRetryFailsAndFinishes() async throws {
        let id = try #require(await store.purchase("pro").transaction?.transactionID)
        verifier.set(.invalid(reason: "forged"))
        let result = try await store.retryUnverifiedOrder(transactionID: id)
        #expect(result == .failed(.verificationFailed("forged"), result.transaction))
        #expect(try await store.unverifiedOrders().isEmpty)
        #expect(await backend.finished == [id])
    }

    @Test func removingOneFinishesItAtTheStoreAndRecordsNothing() async throws {
        let id = try #require(await store.purchase("pro").transaction?.transactionID)
        try await store.removeUnverifiedOrder(transactionID: id)
        #expect(try await store.unverifiedOrders().isEmpty)
        #expect(await backend.finished == [id], "the store stops delivering it")
        #expect(try await store.history().isEmpty)
        await #expect(throws: StoreError.unknownTransaction(id)) {
            try await store.removeUnverifiedOrder(transactionID: id)
        }
        await #expect(throws: StoreError.unknownTransaction("nope")) {
            try await store.retryUnverifiedOrder(transactionID: "nope")
        }
    }

    @Test func theNextStartVerifiesItAgain() async throws {
        let id = try #require(await store.purchase("pro").transaction?.transactionID)
        await store.stop()
        verifier.set(.valid)
        let next = try engine.store(StoreConfiguration(verifier: verifier, notificationCenter: center))
        var updates = next.transactionUpdates().makeAsyncIterator()
        await next.start()
        #expect(try await next.unverifiedOrders().isEmpty)
        #expect(try await next.isPurchased("pro"))
        #expect(await updates.next()?.transactionID == id, "delivered as an update: no caller waits for it")
    }
}
