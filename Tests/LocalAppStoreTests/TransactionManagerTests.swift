import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

@Suite(.timeLimit(.minutes(10))) struct TransactionManagerTests {
    @Test func askToBuyDefersThenApproveChargesAndPurchases() async throws {
        let dir = try TemporaryDirectory()
        let recorder = FaultRecorder()
        let store = try makeStore(dir, faultHook: recorder.record)
        try await store.settings.set(name: "ask-to-buy", value: "on")
        var events = EventReader(await store.events())
        let deferred = try await buy(store, &events, TestCatalog.pro)
        #expect(deferred.state == .deferred)
        #expect(try await store.transactionManager.charges().isEmpty)
        #expect(recorder.recorded == [.beforeCharge], "deferred, not charged")
        #expect(
            try await store.transactionManager.pending() == [
                PendingTransaction(transaction: deferred, reason: .askToBuy)
            ])

        let approved = try await store.transactionManager.approve(transactionID: deferred.transactionID)
        #expect(approved.state == .purchased)
        #expect(await events.nextUpdate() == [approved])
        #expect(try await store.transactionManager.charges().map(\.transactionID) == [deferred.transactionID])
        #expect(try await store.transactionManager.pending().isEmpty)
        #expect(recorder.recorded == [.beforeCharge, .afterCharge])
        await #expect(throws: LocalAppStoreError.self) {
            try await store.transactionManager.approve(transactionID: deferred.transactionID)
        }
    }

    @Test func declineFailsTheDeferredPurchaseWithoutACharge() async throws {
        var shop = try await Shop(settings: [("ask-to-buy", "on")])
        let store = shop.store
        let deferred = try await shop.buy(TestCatalog.coins)
        let declined = try await store.transactionManager.decline(transactionID: deferred.transactionID)
        #expect(declined.state == .failed)
        #expect(declined.error == .paymentCancelled)
        #expect(await shop.events.nextUpdate() == [declined])
        #expect(try await store.transactionManager.charges().isEmpty)
        try await store.finish(transactionID: declined.transactionID)
        #expect(try await store.unfinishedTransactions().isEmpty)
    }

    @Test func anInterruptedPurchaseWaitsUntilResolvedThenCompletes() async throws {
        var shop = try await Shop(settings: [("interrupt-purchases", "on")])
        let store = shop.store
        let interrupted = try await shop.buy(TestCatalog.monthly)
        #expect(interrupted.state == .deferred)
        #expect(interrupted.error == .interrupted)
        #expect(try await store.transactionManager.pending().map(\.reason) == [.interrupted])
        await #expect(throws: LocalAppStoreError.self) {
            try await store.transactionManager.approve(transactionID: interrupted.transactionID)
        }
        await #expect(throws: LocalAppStoreError.self) {
            try await store.transactionManager.decline(transactionID: interrupted.transactionID)
        }

        let resolved = try await store.transactionManager.resolve(transactionID: interrupted.transactionID)
        #expect(resolved.state == .purchased)
        #expect(resolved.error == nil)
        #expect(await shop.events.nextUpdate() == [resolved])
        #expect(try await store.transactionManager.charges().count == 1)
    }

    @Test func resolvingOrApprovingWhatDoesNotWaitIsAClearError() async throws {
        var shop = try await Shop()
        let store = shop.store
        let bought = try await shop.buy(TestCatalog.coins)
        await #expect(
            throws: LocalAppStoreError.notPending(
                transactionID: bought.transactionID, state: "purchased",
                expected: "an interrupted purchase waiting to be resolved")
        ) {
            try await store.transactionManager.resolve(transactionID: bought.transactionID)
        }
        await #expect(throws: LocalAppStoreError.unknownTransaction("12345")) {
            try await store.transactionManager.approve(transactionID: "12345")
        }
        #expect(LocalAppStoreError.unknownTransaction("12345").description.contains("12345"))
    }

    @Test func historyHoldsOnlyTheAccountsTransactions() async throws {
        let dir = try TemporaryDirectory()
        let mine = try makeStore(dir)
        let theirs = try makeStore(dir, account: StoreAccount(id: "other", displayName: "Other"))
        var myEvents = EventReader(await mine.events())
        var theirEvents = EventReader(await theirs.events())
        let own = try await buy(mine, &myEvents, TestCatalog.coins)
        let other = try await buy(theirs, &theirEvents, TestCatalog.coins)
        #expect(try await mine.transactionManager.history().map(\.transactionID) == [own.transactionID])
        #expect(try await theirs.transactionManager.history().map(\.transactionID) == [other.transactionID])
        await #expect(throws: StoreError.unknownTransaction(other.transactionID)) {
            try await mine.finish(transactionID: other.transactionID)
        }
    }
}
