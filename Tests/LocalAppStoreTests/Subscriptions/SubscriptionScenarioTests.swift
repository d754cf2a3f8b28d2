import Catalog
import Foundation
import Receipts
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

/// Subscriptions end to end: the engine over the real local store, the Demo catalog, a
/// manual store clock and one renewal every 10 seconds. Each scenario checks entitlements,
/// the group's status and what reaches the app's update stream.
@Suite(.timeLimit(.minutes(10)))
struct SubscriptionScenarioTests {
    /// One launch of "the app": a store and an engine on the scenario's directory.
    struct App {
        let backend: LocalAppStore
        let store: Store
        var updates: AsyncStream<StoreCore.Transaction>.Iterator
        var events: AsyncStream<StoreEvent>.Iterator

        /// The next transaction on the update stream.
        mutating func nextUpdate() async -> StoreCore.Transaction? { await updates.next() }

        /// Waits until the group reports `state`, and returns the states reported on the way.
        mutating func waitForStatus(_ state: SubscriptionStatus.State) async -> [SubscriptionStatus.State] {
            var seen: [SubscriptionStatus.State] = []
            while let event = await events.next() {
                if case .subscriptionStatusChanged(let status) = event {
                    seen.append(status.state)
                    if status.state == state { break }
                }
            }
            return seen
        }
    }

    let demo: DemoEngine

    init() throws { demo = try DemoEngine() }

    func launch(settings: [String: String] = [:], catalog: StoreKitConfiguration? = nil) async throws -> App {
        let backend = try makeStore(demo.directory, catalog: catalog ?? demo.catalog, clock: demo.clock)
        try await backend.settings.set(name: "time-rate", value: "every-10-seconds")
        for (name, value) in settings { try await backend.settings.set(name: name, value: value) }
        let store = try makeEngine(backend, in: demo.directory, clock: demo.clock)
        let app = App(
            backend: backend, store: store, updates: store.transactionUpdates().makeAsyncIterator(),
            events: store.events().makeAsyncIterator())
        await store.start()
        return app
    }

    func entitled(_ app: App) async throws -> [String] { try await app.store.currentEntitlements().map(\.productID) }

    /// The in-app entries of the store's app receipt as it is now, by transaction ID.
    func receiptEntries(_ app: App) async throws -> [String: InAppPurchaseReceipt] {
        let receipt = try #require(await app.backend.appReceipt())
        let decoded = try ReceiptDecoder().decode(Array(receipt))
        return Dictionary(decoded.inApp.map { ($0.transactionID, $0) }, uniquingKeysWith: { $1 })
    }

    @Test func buyRenewThreeTimesCancelAndLapse() async throws {
        var app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        #expect(first.expiresDate == demo.clock.now.addingTimeInterval(10))
        var renewals: [StoreCore.Transaction] = []
        for _ in 0..<3 {
            demo.clock.advance(by: 10)
            renewals.append(try #require(await app.nextUpdate()))
        }
        #expect(
            renewals.allSatisfy { $0.originalTransactionID == first.transactionID && $0.productID == DemoCatalog.basic }
        )
        #expect(
            Set(renewals.compactMap(\.webOrderLineItemID) + [first.webOrderLineItemID].compactMap { $0 }).count == 4)
        #expect(renewals.map(\.expiresDate) == (2...4).map { first.purchaseDate.addingTimeInterval(Double($0) * 10) })
        #expect(try await entitled(app) == [DemoCatalog.basic])
        let entries = try await receiptEntries(app)
        for t in [first] + renewals {
            let entry = try #require(entries[t.transactionID], "the receipt lists every period")
            #expect(entry.originalTransactionID == first.transactionID)
            #expect(
                entry.expiresDate.map { Int($0.timeIntervalSince1970) }
                    == t.expiresDate.map { Int($0.timeIntervalSince1970) })
            #expect(entry.productType == .autoRenewableSubscription)
        }

        try await app.backend.subscriptions.setAutoRenew(first.transactionID, on: false)
        let info = await app.backend.renewalInfo().first
        #expect(info?.willAutoRenew == false)
        demo.clock.advance(by: 5)
        #expect(try await entitled(app) == [DemoCatalog.basic], "access continues to the end of the period")
        demo.clock.advance(by: 6)
        #expect(await app.waitForStatus(.expired).last == .expired)
        #expect(try await entitled(app).isEmpty)
        #expect(await app.backend.renewalInfo().first?.expirationIntent == .cancelled)
        #expect(try await app.store.history().count == 4)
    }

    @Test func freeTrialThenPaidAndTheTrialOnlyOncePerGroup() async throws {
        var app = try await launch()
        let group = try #require(demo.catalog.product(id: DemoCatalog.plus)?.subscription?.groupID)
        #expect(try await app.store.isEligibleForIntroOffer(groupID: group))
        let trial = try #require(await app.store.purchase(DemoCatalog.plus).transaction)
        #expect(try await !app.store.isEligibleForIntroOffer(groupID: group), "the engine agrees with the store")
        #expect(trial.offerType == .introductory)
        #expect(trial.price == 0)
        #expect(try await receiptEntries(app)[trial.transactionID]?.isInIntroOfferPeriod == true)
        #expect(try await entitled(app) == [DemoCatalog.plus], "the trial entitles")
        #expect(await app.waitForStatus(.subscribed).last == .subscribed)
        demo.clock.advance(by: 10)
        let paid = try #require(await app.nextUpdate())
        #expect(paid.offerType == nil)
        #expect(paid.price == Decimal(string: "4.99"))
        #expect(paid.originalTransactionID == trial.transactionID)
        #expect(try await entitled(app) == [DemoCatalog.plus])
        #expect(try await app.store.currentEntitlements().first?.transactionID == paid.transactionID)
        #expect(try await receiptEntries(app)[paid.transactionID]?.isInIntroOfferPeriod == false)

        try await app.backend.subscriptions.expire(DemoCatalog.plus)
        #expect(await app.waitForStatus(.expired).last == .expired)
        let again = try #require(await app.store.purchase(DemoCatalog.pro).transaction)
        #expect(again.offerType == nil, "the introductory offer is once per group per account")
        #expect(try await !app.store.isEligibleForIntroOffer(groupID: group), "a lapsed subscriber stays ineligible")
        #expect(again.originalTransactionID == trial.transactionID, "one subscription per group keeps its original ID")
    }

    @Test func upgradeMidPeriodTakesEffectAtOnce() async throws {
        var app = try await launch()
        let basic = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        #expect(await app.waitForStatus(.subscribed).last == .subscribed)
        demo.clock.advance(by: 4)
        let pro = try #require(await app.store.purchase(DemoCatalog.pro).transaction)
        #expect(pro.productID == DemoCatalog.pro)
        #expect(pro.originalTransactionID == basic.transactionID)
        #expect(pro.expiresDate == demo.clock.now.addingTimeInterval(10))
        // The replaced period reaches the app as upgraded.
        let replaced = try #require(await app.nextUpdate())
        #expect(replaced.transactionID == basic.transactionID && replaced.isUpgraded)
        #expect(try await app.store.history().first { $0.transactionID == basic.transactionID }?.isUpgraded == true)
        #expect(try await entitled(app) == [DemoCatalog.pro], "only one active subscription per group")
        let statuses = try await app.store.subscriptionStatuses()
        #expect(statuses.map(\.state) == [.subscribed] && statuses.first?.transaction.productID == DemoCatalog.pro)
        let entries = try await receiptEntries(app)
        #expect(entries[pro.transactionID]?.productID == DemoCatalog.pro)
        #expect(
            entries[basic.transactionID]?.originalTransactionID == entries[pro.transactionID]?.originalTransactionID)
        #expect(
            entries[basic.transactionID]?.cancellationDate.map { Int($0.timeIntervalSince1970) }
                == Int(pro.purchaseDate.timeIntervalSince1970), "the receipt cancels an upgraded period at the upgrade")
        // SwiftyStoreKit's question over the group, from the app's records and from the receipt.
        let group: Set = [DemoCatalog.basic, DemoCatalog.pro]
        for (source, verdict) in [
            ("the app's records", try await app.store.verifySubscriptions(.autoRenewable, productIDs: group)),
            (
                "the receipt",
                PurchaseQueries.verifySubscriptions(
                    .autoRenewable, productIDs: group, in: entries.values.compactMap { PurchaseRecord($0) },
                    at: demo.clock.now)
            ),
        ] {
            guard case .purchased(let until, let items) = verdict else {
                Issue.record("\(source): \(verdict)")
                continue
            }
            #expect(
                Int(until.timeIntervalSince1970) == Int(try #require(pro.expiresDate).timeIntervalSince1970),
                "\(source)")
            #expect(items.map(\.transactionID) == [pro.transactionID], "\(source): the upgraded period does not count")
        }
        // Entitlements from the verified receipt, with the catalog's groups.
        let groupID = try #require(demo.catalog.product(id: DemoCatalog.pro)?.subscription?.groupID)
        let fromReceipt = entries.values.compactMap {
            PurchaseRecord($0, groups: [DemoCatalog.basic: groupID, DemoCatalog.pro: groupID])
        }
        #expect(
            EntitlementCalculator().currentEntitlements(records: fromReceipt, renewalInfo: [], at: demo.clock.now)
                .map(\.transactionID) == [pro.transactionID])
        #expect(try await app.backend.transactionManager.charges().count == 2)
    }

    @Test func downgradeWaitsForTheRenewal() async throws {
        var app = try await launch()
        let pro = try #require(await app.store.purchase(DemoCatalog.pro).transaction)
        demo.clock.advance(by: 3)
        let answer = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        #expect(answer.productID == DemoCatalog.pro, "the current level stays until the renewal")
        #expect(
            answer.expiresDate == pro.expiresDate && answer.webOrderLineItemID == pro.webOrderLineItemID,
            "the same period")
        #expect(await app.backend.renewalInfo().first?.autoRenewProductID == DemoCatalog.basic)
        #expect(try await entitled(app) == [DemoCatalog.pro])
        let status = try #require(try await app.store.subscriptionStatuses().first)
        #expect(status.state == .subscribed && status.renewalInfo?.autoRenewProductID == DemoCatalog.basic)
        #expect(try await app.backend.transactionManager.charges().count == 1, "a downgrade charges nothing now")
        demo.clock.advance(by: 7)
        let renewal = try #require(await app.nextUpdate())
        #expect(renewal.productID == DemoCatalog.basic)
        #expect(renewal.originalTransactionID == pro.transactionID)
        #expect(try await entitled(app) == [DemoCatalog.basic])
        #expect(try await receiptEntries(app)[renewal.transactionID]?.productID == DemoCatalog.basic)
    }

    /// The transaction a downgrade answers with stands for the current period: refunding it
    /// ends the subscription in the store as in the app.
    @Test func refundingTheDowngradesAnswerEndsTheSubscription() async throws {
        var app = try await launch()
        _ = await app.store.purchase(DemoCatalog.pro)
        demo.clock.advance(by: 3)
        let answer = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        try await app.backend.transactionManager.refund(transactionID: answer.transactionID)
        #expect(await app.waitForStatus(.revoked).last == .revoked)
        #expect(try await entitled(app).isEmpty)
        #expect(try await app.backend.subscriptions.all().first?.isExpired == true, "the store agrees")
        demo.clock.advance(by: 20)
        #expect(try await app.store.history().count == 2, "nothing renews")
    }

    @Test func crossgradeToAnotherPeriodWaitsForTheRenewal() async throws {
        var app = try await launch()
        _ = await app.store.purchase(DemoCatalog.pro)
        _ = await app.store.purchase(DemoCatalog.proYearly)
        #expect(try await entitled(app) == [DemoCatalog.pro])
        demo.clock.advance(by: 10)
        #expect(await app.nextUpdate()?.productID == DemoCatalog.proYearly)
    }

    @Test func billingRetryThenRecovery() async throws {
        var app = try await launch(settings: ["billing-retry": "on"])
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        demo.clock.advance(by: 10)
        #expect(await app.waitForStatus(.inBillingRetryPeriod).last == .inBillingRetryPeriod)
        #expect(try await entitled(app).isEmpty)
        #expect(await app.backend.renewalInfo().first?.isInBillingRetry == true)

        #expect(try await receiptEntries(app).count == 1, "a failed renewal adds no period to the receipt")

        try await app.backend.settings.set(name: "billing-retry", value: "off")
        try await app.backend.subscriptions.setBillingIssue(first.transactionID, on: false)
        let recovered = try #require(await app.nextUpdate())
        #expect(recovered.originalTransactionID == first.transactionID)
        #expect(recovered.purchaseDate == demo.clock.now)
        #expect(await app.waitForStatus(.subscribed).last == .subscribed)
        #expect(try await entitled(app) == [DemoCatalog.basic])
        let entry = try #require(try await receiptEntries(app)[recovered.transactionID])
        #expect(entry.originalTransactionID == first.transactionID)
        #expect(
            entry.expiresDate.map { Int($0.timeIntervalSince1970) }
                == recovered.expiresDate.map { Int($0.timeIntervalSince1970) })
    }

    @Test func gracePeriodThenExpiry() async throws {
        var app = try await launch(settings: ["billing-retry": "on", "grace-period": "on"])
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        demo.clock.advance(by: 10)
        #expect(await app.waitForStatus(.inGracePeriod).last == .inGracePeriod)
        #expect(try await app.store.currentEntitlements().map(\.state) == [.inGracePeriod])
        demo.clock.advance(by: 10)
        #expect(
            await app.waitForStatus(.inBillingRetryPeriod).last == .inBillingRetryPeriod, "grace ends, retry goes on")
        demo.clock.advance(by: 30)
        #expect(await app.waitForStatus(.expired).last == .expired)
        #expect(await app.backend.renewalInfo().first?.expirationIntent == .billingError)
        #expect(try await entitled(app).isEmpty)
        #expect(try await app.store.history().map(\.transactionID) == [first.transactionID])
        let entries = try await receiptEntries(app)
        #expect(entries.keys.sorted() == [first.transactionID], "no period was paid after the first")
        #expect(entries[first.transactionID]?.cancellationDate == nil, "a lapse is no refund")
        // Nothing new was sold, so the update stream stays quiet: the next update is a later refund.
        try await app.backend.transactionManager.refund(transactionID: first.transactionID)
        #expect(await app.nextUpdate()?.transactionID == first.transactionID)
    }

    /// Xcode's forced renewal while billing fails: the renewal fails now, as one on the
    /// clock would: the period ends at once and billing retry (here with grace) begins.
    @Test func aForcedRenewalWhileBillingFailsEntersGraceThenResolvingRenews() async throws {
        var app = try await launch(settings: ["grace-period": "on"])
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        demo.clock.advance(by: 3)
        try await app.backend.subscriptions.setBillingIssue(first.transactionID, on: true)
        let failed = try #require(try await app.backend.subscriptions.renew(first.transactionID))
        #expect(failed.transactionID == first.transactionID, "no new transaction: nothing was billed")
        #expect(failed.expiresDate == demo.clock.now)
        let ended = try #require(await app.nextUpdate())
        #expect(ended.transactionID == first.transactionID && ended.expiresDate == demo.clock.now)
        #expect(await app.waitForStatus(.inGracePeriod).last == .inGracePeriod)
        #expect(try await app.store.currentEntitlements().map(\.state) == [.inGracePeriod], "access continues in grace")
        let info = try #require(await app.backend.renewalInfo().first)
        #expect(info.isInBillingRetry)
        #expect(info.gracePeriodExpiresDate.map { $0 > demo.clock.now } == true)
        #expect(
            try await receiptEntries(app)[first.transactionID]?.expiresDate.map { Int($0.timeIntervalSince1970) }
                == Int(demo.clock.now.timeIntervalSince1970))

        // Forcing again while billing still fails is refused, naming the way out.
        await #expect(throws: LocalAppStoreError.self) {
            try await app.backend.subscriptions.renew(first.transactionID)
        }

        try await app.backend.subscriptions.setBillingIssue(first.transactionID, on: false)
        let recovered = try #require(await app.nextUpdate())
        #expect(
            recovered.originalTransactionID == first.transactionID && recovered.transactionID != first.transactionID)
        #expect(recovered.purchaseDate == demo.clock.now)
        #expect(await app.waitForStatus(.subscribed).last == .subscribed)
        #expect(try await entitled(app) == [DemoCatalog.basic])
    }

    /// Without a grace period a failed forced renewal ends access at once; the store's
    /// billing-retry setting fails it as the per-subscription issue does.
    @Test func aForcedRenewalUnderTheBillingRetrySettingEndsAccessAtOnce() async throws {
        var app = try await launch(settings: ["billing-retry": "on"])
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        demo.clock.advance(by: 2)
        try await app.backend.subscriptions.renew(DemoCatalog.basic)
        #expect(await app.waitForStatus(.inBillingRetryPeriod).last == .inBillingRetryPeriod)
        #expect(try await entitled(app).isEmpty)
        #expect(try await app.store.history().map(\.transactionID) == [first.transactionID])
        let info = try #require(await app.backend.renewalInfo().first)
        #expect(info.isInBillingRetry && info.gracePeriodExpiresDate == nil)
    }

    @Test func refundMidPeriodRevokes() async throws {
        var app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        demo.clock.advance(by: 4)
        try await app.backend.transactionManager.refund(transactionID: first.transactionID, reason: 1)
        let revoked = try #require(await app.nextUpdate())
        #expect(revoked.transactionID == first.transactionID)
        #expect(revoked.revocationDate == demo.clock.now)
        #expect(revoked.revocationReason == 1)
        #expect(await app.waitForStatus(.revoked).last == .revoked)
        #expect(try await entitled(app).isEmpty)
        let refunded = try #require(try await receiptEntries(app)[first.transactionID])
        #expect(
            refunded.cancellationDate.map { Int($0.timeIntervalSince1970) } == Int(demo.clock.now.timeIntervalSince1970)
        )
        demo.clock.advance(by: 20)
        #expect(try await app.store.history().count == 1, "a revoked subscription does not renew")
    }

    @Test func renewalsThatHappenedOfflineAreDeliveredInOrderOnRelaunch() async throws {
        do {
            let app = try await launch()
            _ = await app.store.purchase(DemoCatalog.basic)
            await app.store.stop()
        }
        demo.clock.advance(by: 35)  // three renewals fall due while no process runs
        var app = try await launch()
        var delivered: [StoreCore.Transaction] = []
        for _ in 0..<3 { delivered.append(try #require(await app.nextUpdate())) }
        #expect(delivered.map(\.purchaseDate) == delivered.map(\.purchaseDate).sorted())
        #expect(Set(delivered.map(\.transactionID)).count == 3)
        #expect(try await entitled(app) == [DemoCatalog.basic])
        #expect(try await app.store.history().count == 4)
        let status = try #require(try await app.store.subscriptionStatuses().first)
        #expect(status.state == .subscribed && status.transaction.transactionID == delivered.last?.transactionID)
        let entries = try await receiptEntries(app)
        #expect(delivered.allSatisfy { entries[$0.transactionID] != nil }, "the receipt lists the offline renewals")
    }

    @Test func promotionalOffersAreForSubscribersOnly() async throws {
        let app = try await launch()
        let offerID = try #require(demo.catalog.product(id: DemoCatalog.pro)?.subscription?.promotionalOffers.first?.id)
        let refused = await app.store.purchase(DemoCatalog.pro, offerID: offerID)
        guard case .failed(.ineligibleForOffer, _) = refused else {
            Issue.record("a newcomer got a promotional offer: \(refused)")
            return
        }
        _ = await app.store.purchase(DemoCatalog.basic)
        try await app.backend.subscriptions.expire(DemoCatalog.basic)
        let back = try #require(await app.store.purchase(DemoCatalog.pro, offerID: offerID).transaction)
        #expect(back.offerType == .promotional)
        #expect(back.offerID == offerID)
    }
}

/// Changes made while the app is not running reach it at its next start.
@Suite(.timeLimit(.minutes(10)))
struct OfflineChangeTests {
    @Test func aRefundMadeWhileTheAppIsNotRunningIsDeliveredAtTheNextStart() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        let ledgerPath = directory.url.appendingPathComponent("ledger.jsonl").path
        func engine(_ backend: LocalAppStore) throws -> Store {
            Store(
                backend: backend, ledger: try FileLedger(path: ledgerPath),
                configuration: StoreConfiguration(notificationCenter: NotificationCenter(), clock: clock))
        }
        let bought: StoreCore.Transaction
        do {
            let app = try engine(try makeStore(directory, clock: clock))
            await app.start()
            bought = try #require(await app.purchase(TestCatalog.pro).transaction)
            await app.stop()
        }
        // The store's transaction manager refunds it; no app is attached.
        try await makeStore(directory, clock: clock).transactionManager.refund(transactionID: bought.transactionID)

        let app = try engine(try makeStore(directory, clock: clock))
        var updates = app.transactionUpdates().makeAsyncIterator()
        await app.start()
        #expect(try await app.history().first?.revocationDate == clock.now, "applied before start() returns")
        #expect(try await app.isPurchased(TestCatalog.pro) == false)
        #expect(await updates.next()?.revocationDate == clock.now, "and sent on the update stream")
        #expect(try await app.unfinishedTransactions().isEmpty, "then finished again")
    }
}
