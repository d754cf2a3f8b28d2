import Catalog
import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// A reversed refund through the engine over the real local store: the app hears the
/// transaction again, un-revoked, and its entitlement returns (a non-consumable's, and a
/// subscription's whose period had not ended).
@Suite(.timeLimit(.minutes(10)))
struct RefundReversalEngineTests {
    let demo: DemoEngine

    init() throws { demo = try DemoEngine() }

    @Test(arguments: [DemoCatalog.removeAds, DemoCatalog.pro])
    func theAppGetsTheTransactionBackAndItsEntitlementReturns(_ productID: String) async throws {
        let (backend, store) = try await demo.launch()
        var updates = store.transactionUpdates().makeAsyncIterator()
        let bought = try #require(await store.purchase(productID).transaction)
        demo.clock.advance(by: 1)
        try await backend.transactionManager.refund(transactionID: bought.transactionID, reason: 1)
        let revoked = try #require(await updates.next())
        #expect(revoked.transactionID == bought.transactionID && revoked.revocationDate == demo.clock.now)
        #expect(try await store.currentEntitlements().map(\.productID).contains(productID) == false)

        demo.clock.advance(by: 1)
        try await backend.transactionManager.reverseRefund(transactionID: bought.transactionID)
        let reinstated = try #require(await updates.next())
        #expect(reinstated.transactionID == bought.transactionID)
        #expect(reinstated.revocationDate == nil && reinstated.revocationReason == nil)
        #expect(try await store.currentEntitlements().map(\.productID).contains(productID))
        #expect(try await store.isPurchased(productID))
    }

    @Test func aReversalAfterThePeriodEndedLeavesTheSubscriptionExpired() async throws {
        let (backend, store) = try await demo.launch()
        let bought = try #require(await store.purchase(DemoCatalog.pro).transaction)
        try await backend.transactionManager.refund(transactionID: bought.transactionID)
        let end = try #require(bought.expiresDate)
        demo.clock.advance(by: end.timeIntervalSince(demo.clock.now) + 1)
        try await backend.transactionManager.reverseRefund(transactionID: bought.transactionID)
        await store.synchronize()
        #expect(try await backend.subscriptions.all().first?.isExpired == true)
        #expect(try await store.currentEntitlements().map(\.productID).contains(DemoCatalog.pro) == false)
        #expect(
            try await backend.transactionManager.history().first?.revocationDate == nil, "the refund itself is reversed"
        )
    }
}
