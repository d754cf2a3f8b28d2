import Foundation
import LocalAppStore
import StoreCore
import TestSupport
import Testing

/// The values an app makes for its own test fixtures and previews, made as an app makes them:
/// through the products' public API (no `@testable`), so a missing public initializer fails
/// to compile here.
@Suite struct FixtureInitializerTests {
    let bought = Transaction(
        transactionID: "7", productID: "com.example.pro.monthly", productType: .autoRenewable,
        payment: Payment(productID: "com.example.pro.monthly"), state: .purchased,
        purchaseDate: Date(timeIntervalSince1970: 1_767_225_600),
        expiresDate: Date(timeIntervalSince1970: 1_769_904_000),
        subscriptionGroupID: "G1")

    @Test func anUnverifiedOrderForAPreview() {
        let order = UnverifiedOrder(transaction: bought, receipt: nil, lastFailure: "the server is down")
        #expect(order.attempts == 1 && order.lastFailure == "the server is down" && order.transaction == bought)
        #expect(
            UnverifiedOrder(transaction: bought, receipt: Data([1]), lastFailure: "down", attempts: 3).attempts == 3)
    }

    @Test func aSubscriptionStatusForAPreview() {
        let renewal = RenewalInfo(originalTransactionID: "7", currentProductID: bought.productID, willAutoRenew: false)
        let status = SubscriptionStatus(
            groupID: "G1", state: .inGracePeriod, transaction: PurchaseRecord(bought), renewalInfo: renewal)
        #expect(status.groupID == "G1" && status.state == .inGracePeriod && status.renewalInfo?.willAutoRenew == false)
        #expect(
            SubscriptionStatus(groupID: "G1", state: .subscribed, transaction: PurchaseRecord(bought)).renewalInfo
                == nil)
    }

    /// A second test account on one store: its purchases are its own.
    @Test func aSecondAccountBuysOnItsOwn() async throws {
        let directory = try TemporaryDirectory()
        let catalog = try StoreKitConfiguration.load(contentsOf: DemoCatalog.url)
        func store(_ account: StoreAccount) throws -> LocalAppStore {
            try LocalAppStore(
                configuration: LocalAppStoreConfiguration(
                    catalog: catalog,
                    stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: directory.url),
                    account: account, initialLatencyMilliseconds: 0))
        }
        let second = StoreAccount(id: "second-tester", displayName: "Second Tester")
        #expect(second != .localTester && second.displayName == "Second Tester")
        let theirs = try store(second)
        let engine = Store(backend: theirs, ledger: try FileLedger(path: directory.path("second.jsonl")))
        #expect(await engine.purchase(DemoCatalog.removeAds).state == "purchased")
        #expect(try await theirs.transactionManager.history().map(\.productID) == [DemoCatalog.removeAds])
        #expect(
            try await store(.localTester).transactionManager.history().isEmpty, "the default account bought nothing")
        await engine.stop()
    }
}
