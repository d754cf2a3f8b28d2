import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// A non-renewing subscription is owned as StoreKit 2's `Transaction.currentEntitlements`
/// owns it: its latest transaction, finished or not, until a duration the app sets runs out.
@Suite(.timeLimit(.minutes(10)))
struct NonRenewingEntitlementTests {
    let demo: DemoEngine

    init() throws { demo = try DemoEngine() }

    func engine(_ entitlements: EntitlementCalculator = EntitlementCalculator()) throws -> Store {
        Store(
            backend: try makeStore(demo.directory, catalog: demo.catalog, clock: demo.clock),
            ledger: try FileLedger(path: demo.directory.path("ledger.jsonl")),
            configuration: StoreConfiguration(
                notificationCenter: NotificationCenter(), clock: demo.clock, entitlements: entitlements))
    }

    @Test func withTheDefaultConfigurationTheLatestPassIsOwned() async throws {
        let store = try engine()
        let bought = try #require(await store.purchase(DemoCatalog.seasonPass).transaction)
        #expect(try await store.isPurchased(DemoCatalog.seasonPass))
        #expect(try await store.count(of: DemoCatalog.seasonPass) == 1)
        let entitlement = try #require(
            try await store.currentEntitlements().first { $0.productID == DemoCatalog.seasonPass })
        #expect(entitlement.transactionID == bought.transactionID && entitlement.productType == .nonRenewing)
        #expect(entitlement.expiresDate == nil, "the store sets no expiry and the app set no duration")

        // Bought again a year later: the latest transaction is the entitlement.
        demo.clock.advance(by: 365 * 86_400)
        #expect(try await store.isPurchased(DemoCatalog.seasonPass))
        let again = try #require(await store.purchase(DemoCatalog.seasonPass).transaction)
        #expect(
            try await store.currentEntitlements().filter { $0.productID == DemoCatalog.seasonPass }.map(\.transactionID)
                == [again.transactionID])
    }

    @Test func aDurationTheAppSetsStillEndsIt() async throws {
        let threeMonths = SubscriptionPeriod(value: 3, unit: .month)
        let store = try engine(EntitlementCalculator(nonRenewingDuration: { _ in threeMonths }))
        let bought = try #require(await store.purchase(DemoCatalog.seasonPass).transaction)
        let entitlement = try #require(try await store.currentEntitlements().first)
        #expect(entitlement.expiresDate == threeMonths.advance(bought.purchaseDate))
        demo.clock.advance(by: 100 * 86_400)
        #expect(try await !store.isPurchased(DemoCatalog.seasonPass))
    }
}
