import Foundation
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

/// Two stores on one state directory, as two processes on one data directory.
@Suite(.timeLimit(.minutes(10))) struct MultiInstanceTests {
    /// The revision tells a reader that another instance wrote, and stays put when none did.
    @Test func theRevisionMovesOnlyWhenTheJournalChanges() async throws {
        let dir = try TemporaryDirectory()
        let reader = try makeStore(dir)
        let writer = try makeStore(dir)
        await reader.synchronize()
        let start = await reader.revision
        await reader.synchronize()
        #expect(await reader.revision == start, "nothing written, nothing changed")
        try await writer.settings.set(name: "ask-to-buy", value: "on")
        await reader.synchronize()
        #expect(await reader.revision != start, "another instance's write is seen")
        let after = await reader.revision
        try await reader.settings.set(name: "ask-to-buy", value: "off")
        #expect(await reader.revision != after, "its own write too")
    }

    @Test func interleavedPurchasesFromTwoInstancesAreAllKeptWithUniqueIDs() async throws {
        let dir = try TemporaryDirectory()
        let first = try makeStore(dir)
        let second = try makeStore(dir)
        let perStore = 15
        let ids = try await withThrowingTaskGroup(of: [String].self) { group in
            for store in [first, second] {
                group.addTask {
                    var events = EventReader(await store.events())
                    var ids: [String] = []
                    for n in 0..<perStore {
                        let bought = try await buy(store, &events, TestCatalog.coins, orderData: ["n": String(n)])
                        ids.append(bought.transactionID)
                        try await store.finish(transactionID: bought.transactionID)
                        try await store.settings.set(name: "fail-restore", value: n % 2 == 0 ? "network" : "off")
                    }
                    return ids
                }
            }
            var all: [String] = []
            for try await ids in group { all += ids }
            return all
        }
        #expect(Set(ids).count == 2 * perStore)
        for store in [first, second] {
            let history = try await store.transactionManager.history()
            #expect(history.count == 2 * perStore)
            #expect(history.allSatisfy { $0.state == .purchased })
            #expect(try await store.transactionManager.charges().count == 2 * perStore)
            #expect(try await store.unfinishedTransactions().isEmpty)
        }
        let reopened = try makeStore(dir)
        #expect(Set(try await reopened.transactionManager.history().map(\.transactionID)) == Set(ids))
    }

    @Test func anApprovalInAnotherInstanceReachesTheFirstOnSynchronize() async throws {
        var shop = try await Shop(settings: [("ask-to-buy", "on")])
        let app = shop.store
        let deferred = try await shop.buy(TestCatalog.pro)
        #expect(deferred.state == .deferred)

        let manager = try makeStore(shop.rig.directory)  // `storefront store approve` in another terminal
        #expect(
            try await manager.transactionManager.pending().map(\.transaction.transactionID) == [deferred.transactionID])
        try await manager.transactionManager.approve(transactionID: deferred.transactionID)

        await app.synchronize()
        _ = await shop.events.nextDecision(of: deferred.transactionID, .purchased)
        #expect(try await app.transactionManager.charges().count == 1)
    }

    @Test func settingsChangedByAnotherInstanceApplyToTheNextOperation() async throws {
        let dir = try TemporaryDirectory()
        let app = try makeStore(dir)
        let manager = try makeStore(dir)
        #expect(await app.canMakePayments())
        try await manager.settings.set(name: "payments-allowed", value: "off")
        #expect(await !app.canMakePayments())
        await #expect(throws: StoreError.paymentNotAllowed) { try await app.add(Payment(productID: TestCatalog.coins)) }
    }

    @Test func twoInstancesAdoptingOneAbandonedPurchaseChargeItOnce() async throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        var dying: LocalAppStore? = try makeStore(dir, clock: clock, latency: 1000)
        let queued = try #require(try await dying?.add(Payment(productID: TestCatalog.coins)))
        await clock.waitForSleepers()
        dying = nil
        let first = try makeStore(dir, clock: clock)
        let second = try makeStore(dir, clock: clock)
        async let a = first.events()
        async let b = second.events()
        _ = await (a, b)
        await first.synchronize()
        await second.synchronize()
        #expect(try await first.transactionManager.charges().map(\.transactionID) == [queued.transactionID])
        #expect(try await second.transactionManager.charges().map(\.transactionID) == [queued.transactionID])
    }
}
