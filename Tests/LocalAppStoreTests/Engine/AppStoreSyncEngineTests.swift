import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// StoreKit 2's `AppStore.sync()`, `Storefront` and `Transaction.latest(for:)` over the local
/// store.
@Suite(.timeLimit(.minutes(10)))
struct AppStoreSyncEngineTests {
    let rig: EngineRig

    init() throws { rig = try EngineRig() }

    @Test func theStorefrontIsTheStoresAndEveryMoveIsHeardOnce() async throws {
        let backend = try rig.store()
        let store = try rig.engine(backend)
        #expect(await store.storefront()?.countryCode == "USA")
        #expect(await store.storefront()?.id == "143441")
        let updates = store.storefrontUpdates()
        await store.start()
        try await backend.settings.setStorefront("JPN")
        try await backend.settings.setStorefront("JPN", locale: "en_US")  // the same storefront: no news
        try await backend.settings.setStorefront("DEU")
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next()?.countryCode == "JPN")
        let germany = await iterator.next()
        #expect(germany?.countryCode == "DEU")
        #expect(germany?.id == "143443")
        #expect(germany?.currencyCode == "EUR")
        #expect(await store.storefront() == germany)
    }

    @Test func syncPicksUpAnotherProcesssApprovalAndRestores() async throws {
        let backend = try rig.store()
        try await backend.settings.set(name: "ask-to-buy", value: "on")
        let store = try rig.engine(backend)
        guard case .pending(let waiting) = await store.purchase(TestCatalog.pro) else {
            Issue.record("expected Ask to Buy")
            return
        }
        // Another process (the Transaction Manager) approves it.
        let manager = try rig.store()
        try await manager.transactionManager.approve(transactionID: waiting.transactionID)

        let restored = try await store.sync()
        #expect(restored.map(\.productID) == [TestCatalog.pro])
        #expect(try await store.isPurchased(TestCatalog.pro))
        let history = try await store.history()
        #expect(history.contains { $0.transactionID == waiting.transactionID && $0.state == .purchased })
        // The restored copy is the product's latest transaction; it continues the approved purchase.
        let latest = try #require(try await store.latestTransaction(for: TestCatalog.pro))
        #expect(latest.state == .restored)
        #expect(latest.originalTransactionID == waiting.transactionID)
    }
}
