import Foundation
import TestSupport
import Testing

@testable import StoreCore

/// A transaction is delivered exactly once across the purchase path, the update stream and
/// relaunches (a new `Store` over the same ledger file and backend queue).
@Suite(.timeLimit(.minutes(10)))
struct StoreRecoveryTests {
    let engine: QueueEngine
    var backend: QueueBackend { engine.backend }

    init() throws { engine = try QueueEngine() }

    func launch(_ configuration: StoreConfiguration = StoreConfiguration()) throws -> Store {
        try engine.store(configuration)
    }

    func charged(_ id: String, product: String = "coins", type: ProductType = .consumable) -> Transaction {
        Transaction(
            transactionID: id, productID: product, productType: type,
            payment: Payment(productID: product, orderData: ["order": id]), state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 100))
    }

    @Test func chargedBeforeTheAppHeardIsDeliveredOnTheNextLaunch() async throws {
        await backend.inject(charged("7"))
        let store = try launch()
        var updates = store.transactionUpdates().makeAsyncIterator()
        await store.start()
        let delivered = await updates.next()
        #expect(delivered?.transactionID == "7")
        #expect(delivered?.payment.orderData["order"] == "7", "the app's order data survives")
        #expect(try await store.count(of: "coins") == 1)
        #expect(await backend.finished == ["7"])
    }

    // A missing announcement leaves `updates.next()` waiting: a minute fails it.
    @Test(.timeLimit(.minutes(10))) func recordedButUnannouncedIsAnnouncedOnceAtTheNextLaunchAndCountedOnce()
        async throws
    {
        // The first process recorded the purchase and died before announcing and finishing it
        // (FaultPoint.beforeFinish): the next start announces it, once, then finishes it.
        let ledger = try FileLedger(path: engine.directory.path("ledger.jsonl"))
        #expect(try ledger.record(charged("8")))
        await backend.inject(charged("8"))

        let store = try launch()
        let observer = RecordingObserver()
        store.addObserver(observer)
        var updates = store.transactionUpdates().makeAsyncIterator()
        await store.start()
        #expect(await updates.next()?.transactionID == "8")
        #expect(observer.log == ["finished:8"])
        #expect(await backend.finished == ["8"])
        // Nothing of "8" again: the next things on the stream are a later purchase's.
        let fresh = await store.purchase("coins")
        await backend.inject(charged("9"))
        #expect(await updates.next()?.transactionID == "9")
        #expect(try await store.count(of: "coins") == 3, "8 once, the fresh purchase, and 9")
        #expect(observer.log.filter { $0 == "finished:8" }.count == 1)
        #expect(fresh.state == "purchased")
    }

    @Test(.timeLimit(.minutes(10))) func manualFinishingIsKeptAcrossLaunchesAndSyncUntilTheAppFinishes() async throws {
        let manual = StoreConfiguration(
            finishesTransactionsAutomatically: false, notificationCenter: NotificationCenter())
        let first = try launch(manual)
        let bought = try #require(await first.purchase("pro").transaction)
        await first.stop()
        await backend.detach()

        // The next process: the unfinished purchase is announced once, and stays unfinished.
        let store = try launch(manual)
        let observer = RecordingObserver()
        store.addObserver(observer)
        var updates = store.transactionUpdates().makeAsyncIterator()
        await store.start()
        #expect(await updates.next()?.transactionID == bought.transactionID)
        #expect(observer.log == ["finished:\(bought.transactionID)"])
        #expect(try await store.unfinishedTransactions().map(\.transactionID) == [bought.transactionID])

        // sync() neither finishes it nor announces it again in this process.
        _ = try await store.sync()
        #expect(try await store.unfinishedTransactions().map(\.transactionID).contains(bought.transactionID))
        #expect(await !backend.finished.contains(bought.transactionID))
        #expect(observer.log.filter { $0 == "finished:\(bought.transactionID)" }.count == 1)

        try await store.finish(bought)
        #expect(await backend.finished.contains(bought.transactionID))
        await backend.inject(charged("9"))
        #expect(await updates.next()?.transactionID == "9", "the purchase came once before the next one")
    }

    @Test func failedVerificationFailsAndFinishes() async throws {
        let store = try launch(StoreConfiguration(verifier: FixedVerifier(.invalid(reason: "bad signature"))))
        await store.start()
        let result = await store.purchase("pro")
        #expect(result == .failed(.verificationFailed("bad signature"), result.transaction))
        #expect(await backend.queue.isEmpty)
        #expect(try await store.isPurchased("pro") == false)
    }

    @Test func unverifiableIsKeptAsALostOrderAndDeliveredOnceVerified() async throws {
        let verifier = FixedVerifier(.unableToComplete(reason: "server down"))
        let store = try launch(StoreConfiguration(verifier: verifier))
        await store.start()
        let result = await store.purchase("pro", orderData: ["order": "A-1"])
        let t = try #require(result.transaction)
        guard case .unverified(let kept) = result else {
            Issue.record("a charged purchase whose verification could not complete is no failure: \(result)")
            return
        }
        #expect(kept.transaction == t)
        #expect(kept.lastFailure == "server down")
        #expect(kept.attempts == 1)
        #expect(await backend.queue[t.transactionID] != nil, "stays unfinished")
        let orders = try await store.unverifiedOrders()
        #expect(orders.map(\.transaction.transactionID) == [t.transactionID])
        #expect(orders.first?.receipt == Data("receipt".utf8))
        #expect(orders.first?.transaction.payment.orderData["order"] == "A-1")

        verifier.set(.valid)
        await store.retryUnverifiedOrders()
        #expect(try await store.unverifiedOrders().isEmpty)
        #expect(try await store.isPurchased("pro"))
        #expect(await backend.queue.isEmpty)
    }
}

/// A verifier whose answer the test sets.
final class FixedVerifier: PurchaseVerifier, @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: VerificationOutcome
    init(_ outcome: VerificationOutcome) { self.outcome = outcome }
    func set(_ outcome: VerificationOutcome) { lock.withLock { self.outcome = outcome } }
    func verify(_ transaction: Transaction, receipt: Data?) async -> VerificationOutcome { lock.withLock { outcome } }
}
