import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// No call charges without a way to deliver: `purchase` starts the engine itself, returns at
/// once when its task is cancelled, and a payment already queued is delivered once, later.
@Suite(.timeLimit(.minutes(10)))
struct PurchaseSafetyTests {
    let rig: EngineRig

    init() throws { rig = try EngineRig() }

    /// Waits (never on the wall clock) until something sleeps on the manual clock.
    func untilSomethingSleeps() async {
        await rig.clock.waitForSleepers(1)
    }

    /// Fetches `ids` from a store whose every answer waits `latency` of the manual clock.
    func fetch(_ ids: Set<String>, _ store: Store) async throws {
        async let response = store.requestProducts(ids)
        await untilSomethingSleeps()
        rig.clock.advance(by: 1)
        _ = try await response
    }

    @Test func aPurchaseBeforeStartStartsTheEngineFirst() async throws {
        let store = try rig.engine(try rig.store())
        #expect(await store.isStarted == false)
        let result = await store.purchase(TestCatalog.pro)
        #expect(result.state == "purchased", "\(result)")
        #expect(await store.isStarted)
        #expect(try await store.isPurchased(TestCatalog.pro))
        #expect(try await store.unfinishedTransactions().isEmpty, "delivered and finished")
    }

    @Test func aPurchaseWhoseTaskIsCancelledFirstChargesNothing() async throws {
        let backend = try rig.store()
        let store = try rig.engine(backend)
        let purchase = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await store.purchase(TestCatalog.coins)
        }
        #expect(await purchase.value == .taskCancelled(nil))
        #expect(try await backend.transactionManager.charges().isEmpty)
        #expect(try await backend.unfinishedTransactions().isEmpty, "no payment reached the store")
    }

    @Test func aCancelledPurchaseReturnsAtOnceAndIsDeliveredOnceOnTheUpdateStream() async throws {
        let backend = try rig.store(latency: 1000)
        let store = try rig.engine(backend)
        await store.start()
        try await fetch([TestCatalog.coins], store)
        var updates = store.transactionUpdates().makeAsyncIterator()

        let purchase = Task { await store.purchase(TestCatalog.coins) }
        await untilSomethingSleeps()  // the store waits its latency before charging
        purchase.cancel()
        guard case .taskCancelled = await purchase.value else {
            Issue.record("a cancelled purchase returns .taskCancelled")
            return
        }

        rig.clock.advance(by: 1)  // the store charges: the payment goes on without its caller
        let delivered = try #require(await updates.next())
        #expect(delivered.productID == TestCatalog.coins && delivered.state == .purchased)
        #expect(try await store.count(of: TestCatalog.coins) == 1)
        #expect(try await backend.transactionManager.charges().count == 1)
        #expect(try await backend.unfinishedTransactions().isEmpty)

        // Once: a later engine on the same ledger and store delivers nothing again.
        await store.stop()
        let next = try rig.engine(backend)
        await next.start()
        #expect(try await next.history().map(\.transactionID) == [delivered.transactionID])
        #expect(try await next.count(of: TestCatalog.coins) == 1)
    }

    @Test func aCancelledPurchaseIsDeliveredByTheNextStart() async throws {
        let first = try rig.store(latency: 1000)
        let store = try rig.engine(first)
        await store.start()
        try await fetch([TestCatalog.pro], store)
        let purchase = Task { await store.purchase(TestCatalog.pro) }
        await untilSomethingSleeps()
        purchase.cancel()
        _ = await purchase.value
        await store.stop()  // the app goes away before the store charges
        rig.clock.advance(by: 1)
        while try await first.transactionManager.charges().isEmpty { await Task.yield() }

        // The next launch: a new store instance and engine on the same state and ledger.
        let next = try rig.engine(try rig.store())
        var updates = next.transactionUpdates().makeAsyncIterator()
        await next.start()
        let delivered = try #require(await updates.next())
        #expect(delivered.productID == TestCatalog.pro)
        #expect(try await next.isPurchased(TestCatalog.pro))
        #expect(try await next.history().count == 1)
        #expect(try await next.unfinishedTransactions().isEmpty)
    }
}
