import Catalog
import Foundation
import Receipts
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// Changes of plan during a 12-month commitment, end to end (decision 0120): an upgrade takes
/// effect at once and ends the commitment, its remaining payments never billed; a downgrade or
/// a crossgrade waits for the commitment's end, every month of it billed as agreed, and only
/// then renews into the product chosen. Each is announced as Apple does
/// (`DID_CHANGE_RENEWAL_PREF`), and the signed renewal info says what comes next.
extension SubscriptionScenarioTests {
    /// The Demo catalog with Basic (Yearly), level 3, sold monthly too ($2.49, $29.88 in all):
    /// a commitment a customer can upgrade from.
    static func basicYearlyByTheMonth() throws -> StoreKitConfiguration {
        let data = try Data(contentsOf: DemoCatalog.url)
        var root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var groups = try #require(root["subscriptionGroups"] as? [[String: Any]])
        for g in groups.indices {
            var subscriptions = try #require(groups[g]["subscriptions"] as? [[String: Any]])
            for s in subscriptions.indices where subscriptions[s]["productID"] as? String == DemoCatalog.basicYearly {
                subscriptions[s]["billingPlans"] = [
                    [
                        "billingPlanType": "BILLED_UPFRONT", "displayPrice": "24.99",
                        "commitmentDisplayPrice": "24.99", "internalID": "BASIC_UPFRONT", "isEnabled": true,
                    ],
                    [
                        "billingPlanType": "MONTHLY", "displayPrice": "2.49", "commitmentDisplayPrice": "29.88",
                        "internalID": "BASIC_MONTHLY", "isEnabled": true,
                    ],
                ]
            }
            groups[g]["subscriptions"] = subscriptions
        }
        root["subscriptionGroups"] = groups
        return try StoreKitConfiguration.decode(
            data: try JSONSerialization.data(withJSONObject: root), file: "Demo+BasicMonthly.storekit")
    }

    /// `TYPE` or `TYPE/SUBTYPE` of every notification the store made, oldest first.
    func notificationKinds(_ app: App) async throws -> [String] {
        try await app.backend.notifications.all().map { n in
            n.subtype.map { "\(n.notificationType)/\($0)" } ?? n.notificationType.rawValue
        }
    }

    static let listening = ["notification-url": "http://127.0.0.1:9/notifications"]

    @Test func anUpgradeDuringACommitmentEndsItAtOnceAndItsMonthsLeftAreNotBilled() async throws {
        var app = try await launch(settings: Self.listening, catalog: try Self.basicYearlyByTheMonth())
        let first = try #require(
            await app.store.purchase(DemoCatalog.basicYearly, options: Self.monthly).transaction)
        #expect(first.billingPlanType == .monthly && first.commitmentInfo?.billingPeriodNumber == 1)
        #expect(first.price == Decimal(string: "2.49"))
        demo.clock.advance(by: 10)
        let second = try await nextRenewal(&app, after: [first])
        #expect(second.commitmentInfo?.billingPeriodNumber == 2)

        // Pro (Monthly) is level 1: an upgrade, at once, the commitment's ten months left unbilled.
        demo.clock.advance(by: 3)
        let upgrade = try #require(await app.store.purchase(DemoCatalog.pro).transaction)
        #expect(upgrade.productID == DemoCatalog.pro && upgrade.originalTransactionID == first.transactionID)
        #expect(upgrade.price == Decimal(string: "9.99") && upgrade.commitmentInfo == nil)
        #expect(upgrade.expiresDate == demo.clock.now.addingTimeInterval(10), "a new month starts now")
        await app.store.synchronize()  // the replaced month arrives as the backend's event
        let replaced = try await app.store.history().first { $0.transactionID == second.transactionID }
        #expect(replaced?.isUpgraded == true, "the committed month is replaced")
        let info = try await renewalPayload(app)
        #expect(info.autoRenewProductId == DemoCatalog.pro && info.commitmentInfo == nil, "no commitment runs")
        #expect(try await notificationKinds(app).contains("DID_CHANGE_RENEWAL_PREF/UPGRADE"))

        demo.clock.advance(by: 10)
        let next = try await nextRenewal(&app, after: [first, second, upgrade])
        #expect(next.productID == DemoCatalog.pro && next.price == Decimal(string: "9.99"))
        #expect(next.billingPlanType == nil && next.commitmentInfo == nil)
        #expect(try await entitled(app) == [DemoCatalog.pro])
    }

    /// Apple announces a downgrade and a crossgrade to another duration alike (`DOWNGRADE`).
    @Test(arguments: [DemoCatalog.plus, DemoCatalog.pro])
    func aDowngradeOrACrossgradeDuringACommitmentWaitsForItsEnd(_ target: String) async throws {
        var app = try await launch(settings: Self.listening)
        let first = try #require(await app.store.purchase(DemoCatalog.proYearly, options: Self.monthly).transaction)
        let end = try #require(first.commitmentInfo?.expirationDate)

        // Plus (Monthly) is level 2 (a downgrade), Pro (Monthly) level 1 by the month (a crossgrade
        // to another period): both wait; the purchase answers with the current month, unbilled.
        let answer = try #require(await app.store.purchase(target).transaction)
        #expect(answer.productID == DemoCatalog.proYearly && answer.price == 0)
        #expect(answer.commitmentInfo?.billingPeriodNumber == 1)
        let info = try await renewalPayload(app)
        // The next billing period is still the commitment's month; the change is the commitment's renewal.
        #expect(info.autoRenewProductId == DemoCatalog.proYearly && info.renewalBillingPlanType == .monthly)
        #expect(info.commitmentInfo?.commitmentAutoRenewProductId == target)
        #expect(info.commitmentInfo?.commitmentRenewalDate == end)
        let kinds = try await notificationKinds(app)
        #expect(kinds == ["SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE"], "\(kinds)")

        // Every month of the commitment is billed as agreed; then the product chosen.
        var known = [first, answer]
        for month in 2...12 {
            demo.clock.advance(by: 10)
            let renewal = try await nextRenewal(&app, after: known)
            known.append(renewal)
            #expect(renewal.productID == DemoCatalog.proYearly && renewal.price == Decimal(string: "7.99"))
            #expect(renewal.commitmentInfo?.billingPeriodNumber == month)
        }
        demo.clock.advance(by: 10)
        let after = try await nextRenewal(&app, after: known)
        #expect(after.productID == target && after.purchaseDate == end)
        #expect(after.billingPlanType == nil && after.commitmentInfo == nil, "\(target) has no billing plans")
        #expect(try await renewalPayload(app).commitmentInfo == nil)
        #expect(try await entitled(app) == [target])
    }
}

/// Refunds and introductory offers inside a commitment (decision 0120).
extension SubscriptionScenarioTests {
    @Test func aRefundOfAPastMonthRefundsThatMonthAndOfTheCurrentOneEndsTheSubscription() async throws {
        var app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.proYearly, options: Self.monthly).transaction)
        var known = [first]
        for _ in 2...3 {
            demo.clock.advance(by: 10)
            known.append(try await nextRenewal(&app, after: known))
        }
        // Month 2, past: refunded alone; the commitment goes on.
        let refunded = try await app.backend.transactionManager.refund(transactionID: known[1].transactionID)
        #expect(refunded.revocationDate != nil && refunded.commitmentInfo?.billingPeriodNumber == 2)
        #expect(try await entitled(app) == [DemoCatalog.proYearly])
        demo.clock.advance(by: 10)
        let fourth = try await nextRenewal(&app, after: known + [refunded])
        known.append(fourth)
        #expect(fourth.commitmentInfo?.billingPeriodNumber == 4 && fourth.revocationDate == nil)

        // Month 4, current: the subscription ends with it, as any current period's refund does.
        _ = try await app.backend.transactionManager.refund(transactionID: fourth.transactionID)
        #expect(await app.waitForStatus(.revoked).last == .revoked)
        #expect(try await entitled(app).isEmpty)
        #expect(await app.backend.renewalInfo().first?.commitmentInfo == nil, "no commitment runs any more")
    }

    @Test func theMonthlyPlansFreeWeekIsOncePerGroupWhicheverPlanCameFirst() async throws {
        let app = try await launch()
        let group = try #require(demo.catalog.product(id: DemoCatalog.proYearly)?.subscription?.groupID)
        let upFront = try #require(await app.store.purchase(DemoCatalog.proYearly).transaction)
        #expect(upFront.offerType == nil && upFront.price == Decimal(string: "79.99"), "up front has no free week")
        #expect(try await !app.store.isEligibleForIntroOffer(groupID: group))
        try await app.backend.subscriptions.expire(upFront.transactionID)
        let monthly = try #require(await app.store.purchase(DemoCatalog.proYearly, options: Self.monthly).transaction)
        #expect(monthly.offerType == nil && monthly.price == Decimal(string: "7.99"), "subscribed in the group before")
        #expect(monthly.commitmentInfo?.billingPeriodNumber == 1)
    }
}
