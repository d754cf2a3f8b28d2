import Foundation
import StoreCore
import Synchronization
import TestSupport
import Testing

@testable import LocalAppStore

/// The engine's public surface over the real local store: the closure forms, the account-name
/// paths, store-started payments, SwiftyStoreKit's and RMStore's questions, and local receipt
/// verification set up in one call.
@Suite(.timeLimit(.minutes(10)))
struct EngineSurfaceTests {
    let rig: EngineRig

    init() throws { rig = try EngineRig() }

    /// Calls a closure-style method and returns what its closures reported.
    func reported(_ call: (@escaping @Sendable (String) -> Void) -> Void) async -> String {
        await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            call { done.resume(returning: $0) }
        }
    }

    /// What `call` reports (`reported`), then what it reports once `backend`'s setting
    /// `setting` makes it fail with a network error.
    func reported(
        thenFailing setting: String, on backend: LocalAppStore, _ call: (@escaping @Sendable (String) -> Void) -> Void
    ) async throws -> [String] {
        let before = await reported(call)
        try await backend.settings.set(name: setting, value: "network")
        return [before, await reported(call)]
    }

    // MARK: - Closures

    @Test func theClosureFormsReportSuccessAndFailure() async throws {
        let backend = try rig.store()
        let store = try rig.engine(backend)
        await store.start()

        #expect(
            await reported { say in
                store.requestProducts(
                    [TestCatalog.pro, TestCatalog.missing],
                    success: { r in
                        say("products \(r.products.map(\.id)) invalid \(r.invalidProductIdentifiers)")
                    }, failure: { say("failure \($0)") })
            } == "products [\"\(TestCatalog.pro)\"] invalid [\"\(TestCatalog.missing)\"]")
        try await backend.settings.set(name: "fail-load-products", value: "network")
        #expect(
            await reported { say in
                store.requestProducts(
                    [TestCatalog.coins], useCache: false, success: { _ in say("success") },
                    failure: { say("failure \($0.code)") })
            } == "failure 7")
        try await backend.settings.set(name: "fail-load-products", value: "off")

        #expect(
            await reported { say in
                store.purchase(
                    TestCatalog.pro, success: { say("success \($0.productID)") },
                    failure: { _, e in say("failure \(e)") })
            } == "success \(TestCatalog.pro)")
        try await backend.settings.set(name: "ask-to-buy", value: "on")
        #expect(
            await reported { say in
                store.purchase(
                    TestCatalog.coins, success: { _ in say("success") }, failure: { _, e in say("failure \(e)") },
                    deferred: { say("deferred \($0.productID)") })
            } == "deferred \(TestCatalog.coins)")
        try await backend.settings.set(name: "ask-to-buy", value: "off")
        // Without an `unverified` closure, a purchase that could not be verified reaches `failure`.
        #expect(
            await reported { say in
                store.purchase(
                    TestCatalog.coins, options: PurchaseOptions(verifier: UnavailableVerifier()),
                    success: { _ in say("success") },
                    failure: { _, e in say("failure \(e == .verificationUnavailable("offline"))") })
            } == "failure true")

        #expect(
            try await reported(thenFailing: "fail-restore", on: backend) { say in
                store.restoreTransactions(
                    success: { say("restored \($0.map(\.productID))") }, failure: { say("failure \($0.code)") })
            } == ["restored [\"\(TestCatalog.pro)\"]", "failure 7"])
        #expect(
            try await reported(thenFailing: "fail-refresh-receipt", on: backend) { say in
                store.refreshReceipt(success: { say("receipt \(!$0.isEmpty)") }, failure: { say("failure \($0.code)") })
            } == ["receipt true", "failure 7"])
    }

    // MARK: - Account names

    @Test func theAccountNameTravelsWithThePaymentAndRestoresOnlyItsPurchases() async throws {
        let ada = ApplicationUsername.hash("ada@example.com")
        #expect(ada == "b5fc85e55755f9e0d030a10ab4429b6b2944855f9a0d60077fe832becbc41d72", "SHA-256, lowercase hex")
        let store = try rig.engine(try rig.store())
        let pro = await store.purchase(TestCatalog.pro, applicationUsername: ada)
        #expect(pro.transaction?.payment.applicationUsername == ada)
        _ = await store.purchase(
            TestCatalog.monthly, options: PurchaseOptions(applicationUsername: ApplicationUsername.hash("bob")))

        #expect(try await store.restoreTransactions(applicationUsername: ada).map(\.productID) == [TestCatalog.pro])
        #expect(
            await reported { say in
                store.restoreTransactions(
                    applicationUsername: ApplicationUsername.hash("bob"),
                    success: { say("\($0.map(\.productID))") }, failure: { say("failure \($0)") })
            } == "[\"\(TestCatalog.monthly)\"]")
        #expect(try await store.restoreTransactions(applicationUsername: ApplicationUsername.hash("eve")).isEmpty)
    }

    // MARK: - Store-started payments

    @Test func storeStartedPaymentsAreAddedOrHeldAsTheHandlerSays() async throws {
        let backend = try rig.store()
        let store = try rig.engine(backend)
        await store.start()
        var updates = store.transactionUpdates().makeAsyncIterator()

        // Without a handler every store-started payment is held.
        try await backend.transactionManager.requestStorePayment(productID: TestCatalog.pro)
        while await store.heldPayments().isEmpty { await Task.yield() }
        #expect(await store.heldPayments().map(\.productID) == [TestCatalog.pro])
        #expect(try await backend.transactionManager.charges().isEmpty, "nothing is charged while it is held")
        await store.addHeldStorePayments()
        #expect(await updates.next()?.productID == TestCatalog.pro)
        #expect(await store.heldPayments().isEmpty)

        // A handler that says yes adds the payment at once; one that says no holds it.
        let asked = Mutex<[String]>([])
        await store.setShouldAddStorePaymentHandler { payment, product in
            asked.withLock { $0.append(product.id) }
            return payment.productID == TestCatalog.coins
        }
        try await backend.transactionManager.requestStorePayment(productID: TestCatalog.coins)
        #expect(await updates.next()?.productID == TestCatalog.coins)
        try await backend.transactionManager.requestStorePayment(productID: TestCatalog.season)
        while await store.heldPayments().isEmpty { await Task.yield() }
        #expect(asked.withLock { $0 } == [TestCatalog.coins, TestCatalog.season])
        #expect(try await store.count(of: TestCatalog.coins) == 1)
        #expect(try await store.history().map(\.productID) == [TestCatalog.pro, TestCatalog.coins])
    }

    // MARK: - What the user owns

    @Test func isPurchasedMeansNonConsumablesAndActiveSubscriptionsOnly() async throws {
        let backend = try rig.store()
        let store = try rig.engine(backend)
        var updates = store.transactionUpdates().makeAsyncIterator()
        _ = await store.purchase(TestCatalog.coins, quantity: 2)
        let pro = try #require(await store.purchase(TestCatalog.pro).transaction)
        _ = await store.purchase(TestCatalog.monthly)

        #expect(try await store.isPurchased(TestCatalog.coins) == false, "a consumable is counted, not purchased")
        #expect(try await store.count(of: TestCatalog.coins) == 2)
        #expect(try await store.isPurchased(TestCatalog.pro))
        #expect(try await store.count(of: TestCatalog.pro) == 1)
        #expect(try await store.isPurchased(TestCatalog.monthly))
        #expect(
            try await store.isPurchased(TestCatalog.monthly, at: rig.clock.now.addingTimeInterval(40 * 86_400))
                == false,
            "an expired subscription is not purchased")
        #expect(try await store.count(of: TestCatalog.missing) == 0)
        #expect(try await store.transactions(for: TestCatalog.pro).map(\.transactionID) == [pro.transactionID])
        guard case .purchased(let record) = try await store.verifyPurchase(TestCatalog.pro) else {
            Issue.record("verifyPurchase finds the purchase")
            return
        }
        #expect(record.transactionID == pro.transactionID)

        // A refund ends it.
        _ = try await backend.transactionManager.refund(transactionID: pro.transactionID)
        #expect(await updates.next()?.revocationDate != nil)
        #expect(try await store.isPurchased(TestCatalog.pro) == false)
        #expect(try await store.count(of: TestCatalog.pro) == 0)
        #expect(try await store.verifyPurchase(TestCatalog.pro) == .notPurchased)

        // Forgetting one, then all (RMStore's removeTransactions).
        #expect(try await store.removeTransaction(pro.transactionID))
        #expect(try await store.transactions(for: TestCatalog.pro).isEmpty)
        try await store.removeAllTransactions()
        #expect(try await store.history().isEmpty)
        #expect(try await store.count(of: TestCatalog.coins) == 0)
    }

    // MARK: - Local receipt verification in one call

    @Test func oneCallSetsUpReceiptAndSignedTransactionVerification() async throws {
        let backend = try rig.store()
        let verifier = try await backend.receiptVerifier()  // no chain exists yet: it is made now
        let store = try rig.engine(backend, verifier: verifier)
        let bought = await store.purchase(TestCatalog.pro)
        let transaction = try #require(bought.transaction)
        #expect(bought.state == "purchased", "verified against the receipt: \(bought)")

        let configuration = try await backend.receipts.receiptVerifierConfiguration()
        let device = try backend.receipts.deviceIdentifier()
        #expect(configuration.deviceIdentifier == withUnsafeBytes(of: device.uuid) { Array($0) })
        #expect(configuration.bundleID == backend.configuration.bundleID)
        guard case .success(let receipt) = verifier.validate(await store.appReceipt()) else {
            Issue.record("the store's receipt validates")
            return
        }
        #expect(receipt.containsInAppPurchase(ofProductID: TestCatalog.pro))
        #expect(!receipt.containsInAppPurchase(ofProductID: TestCatalog.coins))
        #expect(verifier.validate(Data("not a receipt".utf8)).isFailure)

        let signed = try await backend.signedTransactionVerifier()
        #expect(await signed.verify(transaction, receipt: nil) == .valid)
    }
}

/// A verifier whose server is unreachable.
struct UnavailableVerifier: PurchaseVerifier {
    var needsReceipt: Bool { false }
    func verify(_ transaction: StoreCore.Transaction, receipt: Data?) async -> VerificationOutcome {
        .unableToComplete(reason: "offline")
    }
}

extension Result {
    /// Whether this is a failure.
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
