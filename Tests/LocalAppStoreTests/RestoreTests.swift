import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

@Suite(.timeLimit(.minutes(10))) struct RestoreTests {
    @Test func restoreBringsBackNonConsumablesAndAutoRenewablesNeverConsumablesOrNonRenewing() async throws {
        var shop = try await Shop()
        let (store, rig) = (shop.store, shop.rig)
        let coins = try await shop.buy(TestCatalog.coins)
        let pro = try await shop.buy(TestCatalog.pro, orderData: ["order": "p1"])
        let monthly = try await shop.buy(TestCatalog.monthly)
        let season = try await shop.buy(TestCatalog.season)
        for bought in [coins, pro, monthly, season] { try await store.finish(transactionID: bought.transactionID) }
        _ = await shop.events.nextRemoval()
        rig.clock.advance(by: 3600)

        // Apple: restoreCompletedTransactions "has no effect" on non-renewing subscriptions.
        let restored = try await store.restoreCompletedTransactions(applicationUsername: nil)
        #expect(restored.map(\.originalTransactionID) == [pro, monthly].map(\.transactionID))
        #expect(restored.allSatisfy { $0.state == .restored && $0.purchaseDate == rig.clock.now })
        #expect(restored.map(\.originalPurchaseDate) == [pro, monthly].map(\.purchaseDate))
        #expect(restored.first?.payment.orderData == ["order": "p1"])
        #expect(restored[1].expiresDate == monthly.expiresDate)
        let newIDs = restored.compactMap { UInt64($0.transactionID) }
        let oldIDs = [coins, pro, monthly, season].compactMap { UInt64($0.transactionID) }
        #expect(newIDs.count == 2)
        #expect(newIDs.allSatisfy { $0 > oldIDs.max() ?? 0 })
        #expect(try await store.transactionManager.charges().count == 4)

        // Restored transactions go through the queue until finished.
        #expect(try await store.unfinishedTransactions() == restored)
        var announced: [StoreCore.Transaction] = []
        while announced.count < 2 { announced += await shop.events.nextUpdate() }
        #expect(announced == restored)
    }

    @Test func aSyncAlsoBringsBackNonRenewingSubscriptions() async throws {
        var shop = try await Shop()
        let store = shop.store
        let coins = try await shop.buy(TestCatalog.coins)
        let pro = try await shop.buy(TestCatalog.pro)
        let season = try await shop.buy(TestCatalog.season)
        for bought in [coins, pro, season] { try await store.finish(transactionID: bought.transactionID) }

        let synced = try await store.restoreCompletedTransactions(applicationUsername: nil, scope: .sync)
        #expect(synced.map(\.originalTransactionID) == [pro, season].map(\.transactionID))
        let restored = try await store.restoreCompletedTransactions(
            applicationUsername: nil, scope: .completedTransactions)
        #expect(restored.map(\.originalTransactionID) == [pro.transactionID])
        #expect(RestoreScope.allCases.map { $0.includes(.nonRenewing) } == [false, true])
        #expect(
            RestoreScope.allCases.allSatisfy {
                !$0.includes(.consumable) && $0.includes(.nonConsumable) && $0.includes(.autoRenewable)
            })
    }

    @Test func restoreForAnApplicationUsernameReturnsOnlyItsPurchases() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        var events = EventReader(await store.events())
        let alice = try await buy(store, &events, TestCatalog.pro, applicationUsername: "alice-hash")
        let bob = try await buy(store, &events, TestCatalog.monthly, applicationUsername: "bob-hash")
        _ = try await buy(store, &events, TestCatalog.coins, applicationUsername: "alice-hash")

        let forAlice = try await store.restoreCompletedTransactions(applicationUsername: "alice-hash")
        #expect(forAlice.map(\.originalTransactionID) == [alice.transactionID])
        let forBob = try await store.restoreCompletedTransactions(applicationUsername: "bob-hash")
        #expect(forBob.map(\.originalTransactionID) == [bob.transactionID])
        #expect(try await store.restoreCompletedTransactions(applicationUsername: "nobody").isEmpty)
    }

    @Test func everyRenewalOfASubscriptionIsRestoredWithItsOriginalID() async throws {
        let rig = try EngineRig()
        let store = try rig.store()
        var events = EventReader(await store.events())
        let first = try await buy(store, &events, TestCatalog.monthly)
        try await store.finish(transactionID: first.transactionID)
        // A renewal as the subscription machinery journals it: a new transaction, same original.
        let journal = try StoreJournal(
            directory: rig.directory.stateDirectory.path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics()
        )
        let firstEnd = try #require(first.expiresDate)
        let renewalEnd = SubscriptionPeriod(value: 1, unit: .month).advance(firstEnd)
        let (renewal, _) = try journal.transact { state throws(LocalAppStoreError) in
            let renewal = Transaction(
                transactionID: state.allocateTransactionID(), originalTransactionID: first.transactionID,
                productID: first.productID, productType: .autoRenewable, payment: first.payment, state: .purchased,
                purchaseDate: firstEnd, originalPurchaseDate: first.purchaseDate,
                expiresDate: renewalEnd, subscriptionGroupID: first.subscriptionGroupID)
            let entry = QueueEntry(
                transaction: renewal, accountID: StoreAccount.localTester.id, charged: true, finished: true,
                pending: nil, owner: nil)
            return ([JournalRecord.make(entry)], renewal)
        }
        let restored = try await store.restoreCompletedTransactions(applicationUsername: nil)
        #expect(restored.count == 2)
        #expect(restored.allSatisfy { $0.originalTransactionID == first.transactionID })
        #expect(restored.allSatisfy { $0.originalPurchaseDate == first.purchaseDate })
        #expect(restored.map(\.expiresDate) == [first.expiresDate, renewal.expiresDate])
    }

    @Test func failedDeferredAndRestoredTransactionsAreNotRestoredAgain() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        var events = EventReader(await store.events())
        try await store.settings.set(name: "fail-purchases", value: "on")
        _ = try await buy(store, &events, TestCatalog.pro)
        try await store.settings.set(name: "fail-purchases", value: "off")
        try await store.settings.set(name: "ask-to-buy", value: "on")
        _ = try await buy(store, &events, TestCatalog.season)
        try await store.settings.set(name: "ask-to-buy", value: "off")
        let monthly = try await buy(store, &events, TestCatalog.monthly)
        let first = try await store.restoreCompletedTransactions(applicationUsername: nil)
        #expect(first.map(\.originalTransactionID) == [monthly.transactionID])
        let second = try await store.restoreCompletedTransactions(applicationUsername: nil)
        #expect(second.map(\.originalTransactionID) == [monthly.transactionID])
        #expect(second.first?.transactionID != first.first?.transactionID)
        // Adding the original payment again still answers with the original purchase.
        #expect(try await store.add(monthly.payment).transactionID == monthly.transactionID)
    }
}
