import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// The engine (`Store`) over the real local App Store: the purchase walk end to end, and
/// changes made by another process sharing the state directory.
@Suite(.waitsOnProcesses, .timeLimit(.minutes(10)))
struct EngineIntegrationTests {
    let rig: EngineRig

    init() throws { rig = try EngineRig() }

    @Test func purchaseRestoreAndBalancesThroughTheRealStore() async throws {
        let store = try rig.engine(try rig.store())
        await store.start()
        let coins = await store.purchase(TestCatalog.coins, quantity: 3)
        #expect(coins.state == "purchased")
        let pro = try #require(await store.purchase(TestCatalog.pro).transaction)
        #expect(try await store.count(of: TestCatalog.coins) == 3)
        #expect(try await store.consume(TestCatalog.coins, quantity: 2) == 1)
        let restored = try await store.restoreTransactions()
        #expect(restored.map(\.productID) == [TestCatalog.pro])
        #expect(restored.first?.originalTransactionID == pro.transactionID)
        #expect(try await store.unfinishedTransactions().isEmpty)
        #expect(
            await store.purchase(TestCatalog.missing)
                == .failed(.productNotAvailable(productID: TestCatalog.missing), nil))
    }

    @Test func restoreLeavesNonRenewingSubscriptionsToSync() async throws {
        let store = try rig.engine(try rig.store())
        await store.start()
        for product in [TestCatalog.coins, TestCatalog.pro, TestCatalog.season] {
            #expect(await store.purchase(product).state == "purchased", "\(product)")
        }
        // StoreKit 1's restore: not restorable, a non-renewing subscription; StoreKit 2's sync has it.
        #expect(try await store.restoreTransactions().map(\.productID) == [TestCatalog.pro])
        #expect(try await store.sync().map(\.productID) == [TestCatalog.pro, TestCatalog.season])
        #expect(try await store.unfinishedTransactions().isEmpty)
    }

    @Test func aLongRunningEngineSeesAnApprovalMadeByAnotherProcess() async throws {
        let mine = try rig.store()
        let store = try rig.engine(mine)
        await store.start()
        try await mine.settings.set(name: "ask-to-buy", value: "on")
        var updates = store.transactionUpdates().makeAsyncIterator()
        guard case .pending(let waiting) = await store.purchase(TestCatalog.pro) else {
            Issue.record("expected the purchase to wait for approval")
            return
        }

        // Another process (its own store instance on the same directory) approves it.
        let theirs = try rig.store()
        try await theirs.transactionManager.approve(transactionID: waiting.transactionID)

        await store.synchronize()
        let delivered = await updates.next()
        #expect(delivered?.transactionID == waiting.transactionID)
        #expect(delivered?.state == .purchased)
        #expect(try await store.isPurchased(TestCatalog.pro))
        #expect(try await theirs.transactionManager.charges().count == 1)
    }
}
