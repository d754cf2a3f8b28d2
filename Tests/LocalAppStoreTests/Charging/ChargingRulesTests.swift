import Catalog
import Foundation
import StoreCore
import Testing

@testable import LocalAppStore

/// The charging rules on a journal state, without a store: what a purchase becomes under each
/// setting, and what approving, declining and resolving do.
@Suite struct ChargingRulesTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    static let account = "tester"

    let catalog: StoreKitConfiguration
    let rules: ChargingRules

    init() throws {
        catalog = try TestCatalog.load()
        let storefront = try #require(Storefront.named("USA"))
        rules = ChargingRules(
            localizer: ProductLocalizer(catalog: catalog, storefront: storefront, locale: "en_US"), now: Self.now)
    }

    /// `existing` (else a new state under `settings`) with a `.purchasing` transaction of
    /// `productID` added, queued an hour before `now` by an instance.
    static func purchasing(
        _ productID: String, type: ProductType, settings: LocalStoreSettings = LocalStoreSettings(),
        into existing: JournalState? = nil
    ) -> (state: JournalState, id: String) {
        var state = existing ?? JournalState(settings: settings)
        let id = state.allocateTransactionID()
        let transaction = StoreCore.Transaction(
            transactionID: id, productID: productID, productType: type, payment: Payment(productID: productID),
            state: .purchasing, purchaseDate: now.addingTimeInterval(-3600), price: 9.99, currencyCode: "USD",
            storefront: "USA")
        state.put(
            QueueEntry(
                transaction: transaction, accountID: account, charged: false, finished: false, pending: nil,
                owner: "owner"))
        return (state, id)
    }

    /// A new purchase (`purchasing`) settled: its entry once the records are journaled, whether
    /// it was charged, and the records.
    func settled(
        _ productID: String, type: ProductType, settings: LocalStoreSettings = LocalStoreSettings()
    ) throws -> (entry: QueueEntry, charged: Bool, records: [JournalRecord]) {
        let (state, id) = Self.purchasing(productID, type: type, settings: settings)
        let (records, charged) = rules.settle(id, accountID: Self.account, state: state)
        return (try #require(Self.applying(records, to: state).entries[id]), charged, records)
    }

    /// `state` after journaling `records`, as the store would.
    static func applying(_ records: [JournalRecord], to state: JournalState) -> JournalState {
        var state = state
        for record in records { _ = state.apply(record) }
        return state
    }

    @Test func withNoSettingOnAPurchaseIsChargedNow() throws {
        let (entry, charged, records) = try settled(TestCatalog.coins, type: .consumable)
        #expect(charged)
        #expect(records.count == 1)
        #expect(entry.transaction.state == .purchased)
        #expect(entry.charged)
        #expect(entry.owner == nil, "a settled transaction has no owner")
        #expect(entry.pending == nil)
        #expect(entry.transaction.error == nil)
        #expect(entry.transaction.purchaseDate == Self.now, "charged at the time of the change")
        #expect(entry.transaction.originalPurchaseDate == Self.now)
    }

    @Test(arguments: [SimulatedError.network, .cancelled, .notAvailable])
    func failPurchasesFailsWithTheSimulatedError(_ failure: SimulatedError) throws {
        var settings = LocalStoreSettings()
        settings.failPurchases = failure
        settings.askToBuy = true  // failing wins over every other setting
        settings.interruptPurchases = true
        let (entry, charged, _) = try settled(TestCatalog.pro, type: .nonConsumable, settings: settings)
        #expect(!charged)
        #expect(entry.transaction.state == .failed)
        #expect(entry.transaction.error == failure.storeError(productID: TestCatalog.pro))
        #expect(!entry.charged)
        #expect(entry.pending == nil)
    }

    @Test func askToBuyDefersWaitingForApprovalBeforeAnInterruption() throws {
        var settings = LocalStoreSettings()
        settings.askToBuy = true
        settings.interruptPurchases = true
        let (entry, charged, _) = try settled(TestCatalog.coins, type: .consumable, settings: settings)
        #expect(!charged)
        #expect(entry.transaction.state == .deferred)
        #expect(entry.pending == .askToBuy)
        #expect(entry.transaction.error == nil)
        #expect(!entry.charged)
    }

    @Test func anInterruptedPurchaseIsDeferredWithTheInterruptedError() throws {
        var settings = LocalStoreSettings()
        settings.interruptPurchases = true
        let (entry, charged, _) = try settled(TestCatalog.coins, type: .consumable, settings: settings)
        #expect(!charged)
        #expect(entry.transaction.state == .deferred)
        #expect(entry.transaction.error == .interrupted)
        #expect(entry.pending == .interrupted)
    }

    @Test func onlyAnUnfinishedPurchasingTransactionOfTheAccountIsSettled() throws {
        let (state, id) = Self.purchasing(TestCatalog.coins, type: .consumable)
        #expect(rules.settle(id, accountID: "someone-else", state: state).records.isEmpty)
        #expect(rules.settle("404", accountID: Self.account, state: state).records.isEmpty)
        // Settled once (by this instance or another), it is not settled again.
        let settled = Self.applying(rules.settle(id, accountID: Self.account, state: state).records, to: state)
        let again = rules.settle(id, accountID: Self.account, state: settled)
        #expect(again.records.isEmpty)
        #expect(!again.charged)
    }

    @Test func anOwnedNonConsumableIsDeliveredAgainWithoutACharge() throws {
        let (first, firstID) = Self.purchasing(TestCatalog.pro, type: .nonConsumable)
        let owned = Self.applying(rules.settle(firstID, accountID: Self.account, state: first).records, to: first)
        let bought = try #require(owned.entries[firstID])
        #expect(bought.charged)

        let later = ChargingRules(localizer: rules.localizer, now: Self.now.addingTimeInterval(600))
        let (state, id) = Self.purchasing(TestCatalog.pro, type: .nonConsumable, into: owned)
        let (records, charged) = later.settle(id, accountID: Self.account, state: state)
        #expect(!charged)
        #expect(records.count == 1, "no other record: nothing else changes")
        let again = try #require(Self.applying(records, to: state).entries[id])
        #expect(again.transaction.state == .purchased)
        #expect(!again.charged)
        #expect(again.transaction.originalTransactionID == firstID)
        #expect(again.transaction.originalPurchaseDate == bought.transaction.purchaseDate)
        #expect(again.transaction.purchaseDate == Self.now.addingTimeInterval(600))
        #expect(
            Self.applying(records, to: state).ownedPurchase(accountID: Self.account, productID: TestCatalog.pro)?.id
                == firstID)
    }

    @Test func aRefundedNonConsumableIsChargedAgain() throws {
        let (first, firstID) = Self.purchasing(TestCatalog.pro, type: .nonConsumable)
        var owned = Self.applying(rules.settle(firstID, accountID: Self.account, state: first).records, to: first)
        var refunded = try #require(owned.entries[firstID])
        refunded.transaction.revocationDate = Self.now
        owned.put(refunded)
        let (state, id) = Self.purchasing(TestCatalog.pro, type: .nonConsumable, into: owned)
        let (records, charged) = rules.settle(id, accountID: Self.account, state: state)
        #expect(charged)
        let entry = try #require(Self.applying(records, to: state).entries[id])
        #expect(entry.transaction.originalTransactionID == id)
    }

    @Test func aFirstSubscriptionIsChargedAndStartsItsLifecycleWithTheIntroductoryOffer() throws {
        let (state, id) = Self.purchasing(TestCatalog.monthly, type: .autoRenewable)
        let (records, charged) = rules.settle(id, accountID: Self.account, state: state)
        #expect(charged)
        #expect(records.count == 2, "the entry and its subscription")
        let after = Self.applying(records, to: state)
        let entry = try #require(after.entries[id])
        #expect(entry.transaction.offerType == .introductory)
        #expect(entry.transaction.subscriptionGroupID == "G1")
        #expect(entry.transaction.expiresDate == Self.now.addingTimeInterval(7 * 86_400), "a free week first")
        let subscription = try #require(after.subscription(accountID: Self.account, groupID: "G1"))
        #expect(subscription.lifecycle.originalTransactionID == id)
        #expect(subscription.latestTransactionID == id)
    }

    @Test func approvingChargesWhatWaitsForApprovalAndNothingElse() throws {
        var settings = LocalStoreSettings()
        settings.askToBuy = true
        let (queued, id) = Self.purchasing(TestCatalog.coins, type: .consumable, settings: settings)
        let deferred = Self.applying(rules.settle(id, accountID: Self.account, state: queued).records, to: queued)

        #expect(
            throws: LocalAppStoreError.notPending(
                transactionID: id,
                state:
                    "an Ask to Buy purchase waiting for approval (use 'storefront store approve \(id)' or 'storefront store decline \(id)')",
                expected: "an interrupted purchase waiting to be resolved")
        ) {
            _ = try rules.complete(id, accountID: Self.account, waitingFor: .interrupted, state: deferred)
        }
        #expect(throws: LocalAppStoreError.unknownTransaction(id)) {
            _ = try rules.complete(id, accountID: "someone-else", waitingFor: .askToBuy, state: deferred)
        }
        let (entry, records) = try rules.complete(id, accountID: Self.account, waitingFor: .askToBuy, state: deferred)
        #expect(records.count == 1)
        #expect(entry.transaction.state == .purchased)
        #expect(entry.charged)
        #expect(entry.pending == nil)
        let approved = Self.applying(records, to: deferred)
        #expect(
            throws: LocalAppStoreError.notPending(
                transactionID: id, state: "purchased", expected: "an Ask to Buy purchase waiting for approval")
        ) {
            _ = try rules.complete(id, accountID: Self.account, waitingFor: .askToBuy, state: approved)
        }
    }

    @Test func resolvingAnInterruptionClearsItsErrorAndCharges() throws {
        var settings = LocalStoreSettings()
        settings.interruptPurchases = true
        let (queued, id) = Self.purchasing(TestCatalog.coins, type: .consumable, settings: settings)
        let interrupted = Self.applying(rules.settle(id, accountID: Self.account, state: queued).records, to: queued)
        let (entry, _) = try rules.complete(id, accountID: Self.account, waitingFor: .interrupted, state: interrupted)
        #expect(entry.transaction.state == .purchased)
        #expect(entry.transaction.error == nil)
        #expect(entry.pending == nil)
        #expect(entry.charged)
    }

    @Test func approvingAnInterruptedPurchaseSaysToResolveIt() throws {
        var settings = LocalStoreSettings()
        settings.interruptPurchases = true
        let (queued, id) = Self.purchasing(TestCatalog.coins, type: .consumable, settings: settings)
        let interrupted = Self.applying(rules.settle(id, accountID: Self.account, state: queued).records, to: queued)
        for attempt in [
            { _ = try rules.complete(id, accountID: Self.account, waitingFor: .askToBuy, state: interrupted) },
            { _ = try ChargingRules.decline(id, accountID: Self.account, in: interrupted) },
        ] {
            let error = #expect(throws: LocalAppStoreError.self) { try attempt() }
            #expect(
                error?.description == "Transaction \(id) is an interrupted purchase waiting to be resolved "
                    + "(use 'storefront store resolve \(id)'), not an Ask to Buy purchase waiting for approval. "
                    + "`storefront store pending` lists the transactions that wait.")
        }
    }

    @Test func decliningFailsAsCancelledWithoutACharge() throws {
        var settings = LocalStoreSettings()
        settings.askToBuy = true
        let (queued, id) = Self.purchasing(TestCatalog.coins, type: .consumable, settings: settings)
        let deferred = Self.applying(rules.settle(id, accountID: Self.account, state: queued).records, to: queued)
        let declined = try ChargingRules.decline(id, accountID: Self.account, in: deferred)
        #expect(declined.transaction.state == .failed)
        #expect(declined.transaction.error == .paymentCancelled)
        #expect(declined.pending == nil)
        #expect(!declined.charged)

        var finished = deferred
        var entry = try #require(deferred.entries[id])
        entry.finished = true
        finished.put(entry)
        #expect(
            throws: LocalAppStoreError.notPending(
                transactionID: id, state: "finished", expected: "an Ask to Buy purchase waiting for approval")
        ) {
            _ = try ChargingRules.decline(id, accountID: Self.account, in: finished)
        }
    }
}
