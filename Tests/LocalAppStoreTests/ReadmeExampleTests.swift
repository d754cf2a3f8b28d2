import Catalog
import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// The steps of the app the StoreCore guide's "Getting Started" shows (`Examples/ReadmeApp`,
/// which `PackagingTests` builds and runs as a separate package), each checked for what it must give, and a refund
/// made in the store reaching the app's listener.
@Suite(.timeLimit(.minutes(10))) struct ReadmeExampleTests {

    @Test func theReadmeExampleRuns() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("MyAppData", isDirectory: true)

        // 1. The local App Store, on a catalog, and the engine over it, with the purchases in
        //    the encrypted vault.
        let catalog = try StoreKitConfiguration.load(contentsOf: DemoCatalog.url)
        let appStore = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: catalog, stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: data),
                initialLatencyMilliseconds: 0))
        let ledger = try VaultLedger.open(inDataDirectory: data, environment: [:])
        let store = Store(backend: appStore, ledger: ledger)

        // 2. Listen before starting: renewals, refunds, approvals and what an earlier run left
        //    unfinished arrive here (a purchase's own result goes to its caller).
        let listener = Task { () -> StoreCore.Transaction? in
            for await transaction in store.transactionUpdates() { return transaction }
            return nil
        }
        await store.start()

        // 3. Products, localized and priced for the storefront.
        let coins = "com.storefront.demo.coins.100"
        let monthly = "com.storefront.demo.premium.basic.monthly"
        let response = try await store.requestProducts([coins, monthly])
        #expect(Set(response.products.map(\.id)) == [coins, monthly])
        #expect(response.products.first { $0.id == coins }?.displayPrice == "$0.99")

        // 4. Buy, and handle each outcome.
        guard case .purchased(let transaction) = await store.purchase(coins) else {
            Issue.record("the purchase did not complete")
            return
        }
        #expect(transaction.productID == coins)

        // 5. Entitlements, group status, intro offer eligibility.
        let group = try #require(response.products.first { $0.id == monthly }?.subscription?.groupID)
        #expect(try await store.isEligibleForIntroOffer(groupID: group))
        _ = await store.purchase(monthly)
        #expect(try await store.currentEntitlements().map(\.productID) == [monthly], "consumables are no entitlement")
        #expect(try await store.subscriptionStatuses().map(\.state) == [.subscribed])
        #expect(try await !store.isEligibleForIntroOffer(groupID: group))
        #expect(try await store.balances() == [coins: 1])

        // 6. A refund made in the store reaches the listener; restore; stop.
        try await appStore.transactionManager.refund(transactionID: transaction.transactionID)
        let update = await listener.value
        #expect(
            update?.transactionID == transaction.transactionID,
            "the first update is the refund: purchases returned theirs")
        #expect(update?.revocationDate != nil)
        #expect(
            try await store.history().first { $0.transactionID == transaction.transactionID }?.revocationDate != nil)
        #expect(try await store.restoreTransactions().map(\.productID) == [monthly])
        await store.stop()
    }
}
