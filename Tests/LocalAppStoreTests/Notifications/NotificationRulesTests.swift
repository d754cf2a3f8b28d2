import Catalog
import Foundation
import Receipts
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

/// Every store event becomes one notification with Apple's (type, subtype), journaled with
/// the event: each scenario drives the real store on the Demo catalog with a manual clock and
/// one renewal every 10 seconds, and compares the outbox with Apple's documented sequence.
@Suite(.timeLimit(.minutes(10)))
struct NotificationRulesTests {
    let demo: DemoEngine
    let store: LocalAppStore
    var reader: EventReader
    var clock: ManualClock { demo.clock }
    var directory: TemporaryDirectory { demo.directory }

    init() async throws {
        demo = try DemoEngine()
        store = try makeStore(demo.directory, catalog: demo.catalog, clock: demo.clock)
        try await store.settings.set(name: "time-rate", value: "every-10-seconds")
        try await store.settings.set(name: "notification-url", value: "http://127.0.0.1:9/notifications")
        reader = EventReader(await store.events())
    }

    /// The (type, subtype) of every notification so far, as `TYPE` or `TYPE/SUBTYPE`.
    func sequence() async throws -> [String] {
        try await store.notifications.all().map { n in
            n.subtype.map { "\(n.notificationType)/\($0)" } ?? n.notificationType.rawValue
        }
    }

    /// Moves the store clock on and lets the store journal what fell due.
    func advance(_ seconds: TimeInterval) async {
        clock.advance(by: seconds)
        await store.synchronize()
    }

    @Test mutating func trialRenewalsCancelAndVoluntaryExpiry() async throws {
        let trial = try await buy(store, &reader, DemoCatalog.plus)
        #expect(trial.offerType == .introductory)
        await advance(10)
        await advance(10)
        try await store.subscriptions.setAutoRenew(trial.transactionID, on: false)
        await advance(10)
        #expect(
            try await sequence() == [
                "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED",
                "EXPIRED/VOLUNTARY",
            ])
        _ = try await buy(store, &reader, DemoCatalog.plus)
        #expect(try await sequence().last == "SUBSCRIBED/RESUBSCRIBE")
        let all = try await store.notifications.all()
        #expect(Set(all.map(\.notificationUUID)).count == all.count, "one UUID each")
        #expect(all.first?.transaction?.transactionID == trial.transactionID)
        #expect(all.first?.status == 1)
        #expect(all[4].status == 2, "expired")
        #expect(all.allSatisfy { $0.nextAttemptDate != nil && $0.sendAttempts.isEmpty }, "all wait for a sender")
    }

    @Test mutating func billingRetryWithGraceEndsInExpiry() async throws {
        try await store.settings.set(name: "grace-period", value: "on")
        let first = try await buy(store, &reader, DemoCatalog.basic)
        try await store.subscriptions.setBillingIssue(first.transactionID, on: true)
        await advance(10)  // the renewal fails: grace (one renewal interval at this rate)
        await advance(10)  // grace ends
        await advance(10)  // billing retry (twice the interval) ends
        #expect(
            try await sequence() == [
                "SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
                "EXPIRED/BILLING_RETRY",
            ])
        let statuses = try await store.notifications.all().map(\.status)
        #expect(statuses == [1, 4, 3, 2])
    }

    @Test mutating func billingRetryWithoutGraceRecovers() async throws {
        let first = try await buy(store, &reader, DemoCatalog.basic)
        try await store.subscriptions.setBillingIssue(first.transactionID, on: true)
        await advance(10)
        try await store.subscriptions.setBillingIssue(first.transactionID, on: false)
        #expect(try await sequence() == ["SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW", "DID_RENEW/BILLING_RECOVERY"])
    }

    @Test mutating func upgradeDowngradeAndItsUndo() async throws {
        _ = try await buy(store, &reader, DemoCatalog.plus)
        _ = try await buy(store, &reader, DemoCatalog.pro)
        _ = try await buy(store, &reader, DemoCatalog.basic)
        _ = try await buy(store, &reader, DemoCatalog.pro)
        #expect(
            try await sequence() == [
                "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE",
                "DID_CHANGE_RENEWAL_PREF",
            ])
    }

    /// The id of the account's request for `transactionID` (the app's `beginRefundRequest`).
    func requestID(_ transactionID: String) async throws -> String {
        try #require(try await store.refundRequests.all().last { $0.transactionID == transactionID }?.id)
    }

    @Test mutating func oneTimeChargesRefundsAndRefundRequests() async throws {
        let coins = try await buy(store, &reader, DemoCatalog.coins)
        let ads = try await buy(store, &reader, DemoCatalog.removeAds)
        // A consumable: Apple asks for consumption data, then the decision.
        _ = try await store.refundRequests.begin(
            transactionID: coins.transactionID, consumptionRequestReason: "UNINTENDED_PURCHASE")
        try await store.refundRequests.decline(try await requestID(coins.transactionID))
        // A non-consumable: no consumption request; the approval is the refund.
        _ = try await store.beginRefundRequest(transactionID: ads.transactionID)
        try await store.refundRequests.approve(try await requestID(ads.transactionID), reason: 1)
        try await store.transactionManager.reverseRefund(transactionID: ads.transactionID)
        #expect(
            try await sequence() == [
                "ONE_TIME_CHARGE", "ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND_DECLINED", "REFUND",
                "REFUND_REVERSED",
            ])
        let all = try await store.notifications.all()
        #expect(all[2].consumptionRequestReason == "UNINTENDED_PURCHASE")
        #expect(
            all[2].transaction?.transactionID == coins.transactionID
                && all[3].transaction?.transactionID == coins.transactionID)
        #expect(all[4].transaction?.revocationDate != nil && all[4].transaction?.revocationReason == 1)
        #expect(all[5].transaction?.revocationDate == nil)
        #expect(all[0].subscription == nil && all[0].status == nil)
        // The decisions reached the app (journaled as told) without notifying again.
        #expect(try await store.refundRequests.all().allSatisfy(\.isDeliveredToApp))
        #expect(try await store.notifications.all().count == all.count)
    }

    @Test mutating func aSubscriptionRefundRequestAsksForConsumptionData() async throws {
        let first = try await buy(store, &reader, DemoCatalog.basic)
        _ = try await store.beginRefundRequest(transactionID: first.transactionID)
        try await store.refundRequests.approve(try await requestID(first.transactionID))
        #expect(try await sequence() == ["SUBSCRIBED/INITIAL_BUY", "CONSUMPTION_REQUEST", "REFUND"])
        let all = try await store.notifications.all()
        #expect(
            all[1].consumptionRequestReason == "UNSATISFIED_WITH_PURCHASE",
            "the refund sheet's reason when none is given")
        #expect(all[1].status == 1 && all[2].status == 5, "active while asked, revoked once refunded")
    }

    @Test mutating func aSubscriptionRefundIsOneRefund() async throws {
        let first = try await buy(store, &reader, DemoCatalog.basic)
        try await store.transactionManager.refund(transactionID: first.transactionID)
        #expect(try await sequence() == ["SUBSCRIBED/INITIAL_BUY", "REFUND"])
        #expect(try await store.notifications.all().last?.status == 5, "revoked")
    }

    @Test mutating func extensionsAndTheirSummary() async throws {
        let first = try await buy(store, &reader, DemoCatalog.basic)
        let outcome = try await store.server.extendRenewalDate(
            originalTransactionID: first.transactionID, days: 3, reasonCode: 1, requestIdentifier: "one")
        guard case .extended = outcome else {
            Issue.record("not extended: \(outcome)")
            return
        }
        _ = try await store.server.extendRenewalDates(
            productID: DemoCatalog.basic, days: 1, reasonCode: 1, requestIdentifier: "mass-1", storefronts: [])
        _ = try await store.server.extendRenewalDates(
            productID: DemoCatalog.basic, days: 1, reasonCode: 1, requestIdentifier: "mass-2", storefronts: [])
        #expect(
            try await sequence() == [
                "SUBSCRIBED/INITIAL_BUY", "RENEWAL_EXTENDED", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION/SUMMARY",
                "RENEWAL_EXTENSION/FAILURE", "RENEWAL_EXTENSION/SUMMARY",
            ], "two extensions a year: the second mass extension fails for the one subscriber")
        let all = try await store.notifications.all()
        let massOne = try #require(all[3].summary)
        #expect(massOne.productId == DemoCatalog.basic && massOne.requestIdentifier == "mass-1")
        #expect(massOne.succeededCount == 1 && massOne.failedCount == 0)
        let second = try #require(all[5].summary)
        #expect(second.requestIdentifier == "mass-2" && second.succeededCount == 0 && second.failedCount == 1)
        #expect(all[3].accountID == nil && all[3].transaction == nil)
    }

    @Test mutating func priceIncreaseConsentAndDecline() async throws {
        let first = try await buy(store, &reader, DemoCatalog.basic)
        try await store.subscriptions.priceIncrease(first.transactionID)
        try await store.subscriptions.priceIncrease(first.transactionID, consent: .accept)
        await advance(10)
        try await store.subscriptions.priceIncrease(DemoCatalog.basic)
        try await store.subscriptions.priceIncrease(DemoCatalog.basic, consent: .decline)
        // Declining changes nothing yet: auto-renew stays on until the renewal date.
        #expect(try await store.subscriptions.all().first?.willAutoRenew == true)
        await advance(10)
        #expect(
            try await sequence() == [
                "SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "DID_RENEW",
                "PRICE_INCREASE/PENDING", "EXPIRED/PRICE_INCREASE",
            ])
        let all = try await store.notifications.all()
        #expect(all[1].priceIncreaseStatus == 0 && all[2].priceIncreaseStatus == 1)
        #expect(all[3].priceIncreaseStatus == nil, "the accepted increase took effect at that renewal")
        #expect(all[5].priceIncreaseStatus == 0 && all[5].status == 2)
        let lapsed = try #require(try await store.subscriptions.all().first)
        #expect(lapsed.expiration?.intent == .priceIncrease)
        #expect(await store.renewalInfo().first?.expirationIntent == .priceIncrease)
        await #expect(throws: LocalAppStoreError.self) {
            try await store.subscriptions.priceIncrease(DemoCatalog.basic, consent: .accept)
        }
        // Buying again starts afresh: the old increase does not end the new subscription.
        _ = try await buy(store, &reader, DemoCatalog.basic)
        await advance(10)
        #expect(try await sequence().suffix(2) == ["SUBSCRIBED/RESUBSCRIBE", "DID_RENEW"])
    }

    @Test mutating func anUnansweredPriceIncreaseEndsTheSubscriptionAtItsRenewalDate() async throws {
        let first = try await buy(store, &reader, DemoCatalog.basic)
        try await store.subscriptions.priceIncrease(first.transactionID)
        // A forced renewal is the renewal date now: without consent it expires instead.
        let ended = try await store.subscriptions.renew(first.transactionID)
        #expect(ended?.expiresDate == clock.now)
        #expect(try await sequence() == ["SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "EXPIRED/PRICE_INCREASE"])
        #expect(try await store.subscriptions.all().first?.expiration?.intent == .priceIncrease)
        #expect(
            try await store.transactionManager.history().filter { $0.productID == DemoCatalog.basic }.count == 1,
            "no renewal was charged")
    }

    @Test mutating func aReversedSubscriptionRefundReinstatesItsPeriod() async throws {
        let first = try await buy(store, &reader, DemoCatalog.basic)
        clock.advance(by: 3)
        try await store.transactionManager.refund(transactionID: first.transactionID)
        #expect(try await store.subscriptions.all().first?.isExpired == true)
        try await store.transactionManager.reverseRefund(transactionID: first.transactionID)
        let reinstated = try #require(try await store.subscriptions.all().first)
        #expect(!reinstated.isExpired && reinstated.periodEnd == first.expiresDate)
        #expect(try await store.transactionManager.history().last?.revocationDate == nil)
        // It renews at its period's end, as if the refund never happened.
        await advance(7)
        #expect(try await sequence() == ["SUBSCRIBED/INITIAL_BUY", "REFUND", "REFUND_REVERSED", "DID_RENEW"])
        let all = try await store.notifications.all()
        #expect(all[2].status == 1 && all[2].transaction?.revocationDate == nil, "active again")
    }

    @Test mutating func nothingIsRecordedWithoutAURL() async throws {
        try await store.settings.set(name: "notification-url", value: "off")
        _ = try await buy(store, &reader, DemoCatalog.coins)
        #expect(try await store.notifications.all().isEmpty)
    }

    @Test mutating func theOutboxSurvivesAReopenAndACompaction() async throws {
        for _ in 0..<3 { _ = try await buy(store, &reader, DemoCatalog.coins) }
        let before = try await store.notifications.all()
        let reopened = try makeStore(directory, catalog: store.configuration.catalog, clock: clock)
        #expect(try await reopened.notifications.all() == before)
        // A journal that compacts on its next write keeps the outbox in its snapshot.
        let journal = try StoreJournal(
            directory: directory.stateDirectory.path, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(),
            compactionSlack: 0)
        _ = try journal.transact { state throws(LocalAppStoreError) in ([JournalRecord.make(state.settings)], ()) }
        #expect(journal.metrics.compactions > 0)
        let compacted = try makeStore(directory, catalog: store.configuration.catalog, clock: clock)
        #expect(try await compacted.notifications.all() == before)
    }
}
