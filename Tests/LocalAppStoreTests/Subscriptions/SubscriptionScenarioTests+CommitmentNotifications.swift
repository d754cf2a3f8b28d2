import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// The notifications of two 12-month commitments, end to end (decision 0120), as Apple
/// documents them: `SUBSCRIBED` for the purchase, `DID_RENEW` for every month after it and for
/// the commitment renewing into a new one, `DID_CHANGE_RENEWAL_PREF` (no subtype: the same
/// product) when the customer chooses another plan for the commitment's end,
/// `DID_CHANGE_RENEWAL_STATUS` when they turn auto-renew off, and `EXPIRED`/`VOLUNTARY` at the
/// commitment's end, not the month's; a month that fails to bill, `DID_FAIL_TO_RENEW` and, once
/// billed, `DID_RENEW`/`BILLING_RECOVERY`. Each carries the month it is about.
extension SubscriptionScenarioTests {
    @Test func everyMonthTheCommitmentsRenewalAChangeOfPlanACancellationAndTheEndAreNotified() async throws {
        var app = try await launch(settings: Self.listening)
        let first = try #require(await app.store.purchase(DemoCatalog.proYearly, options: Self.monthly).transaction)
        var known = [first]
        // The first commitment's eleven months after the first, then the first month of the next.
        for _ in 2...13 {
            demo.clock.advance(by: 10)
            known.append(try await nextRenewal(&app, after: known))
        }
        let secondEnd = try #require(known.last?.commitmentInfo?.expirationDate)
        try await app.backend.subscriptions.setRenewal(first.transactionID, productID: nil, plan: .billedUpfront)
        try await app.backend.subscriptions.setAutoRenew(first.transactionID, on: false)
        for _ in 2...12 {
            demo.clock.advance(by: 10)
            known.append(try await nextRenewal(&app, after: known))
        }
        demo.clock.advance(by: 10)
        // The store journals the expiry (and its notification) when it next settles what fell due.
        await app.backend.synchronize()
        #expect(await app.waitForStatus(.expired).last == .expired)

        let kinds = try await notificationKinds(app)
        #expect(
            kinds
                == ["SUBSCRIBED/INITIAL_BUY"] + Array(repeating: "DID_RENEW", count: 12)
                + ["DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"]
                + Array(repeating: "DID_RENEW", count: 11) + ["EXPIRED/VOLUNTARY"],
            "\(kinds)")
        let notifications = try await app.backend.notifications.all()
        let months = notifications.filter { $0.notificationType == .didRenew }.map {
            $0.transaction?.commitmentInfo?.billingPeriodNumber
        }
        #expect(months == Array(2...12) + Array(1...12), "each DID_RENEW is the month it bills")
        #expect(notifications.allSatisfy { $0.transaction?.billingPlanType == .monthly })

        // The choices are the commitment's renewal's; the month renews monthly still.
        let change = try #require(notifications.first { $0.notificationType == .didChangeRenewalPref })
        let changed = try #require(change.subscription?.lifecycle)
        #expect(changed.renewalBillingPlanType == .billedUpfront && changed.willAutoRenew)
        #expect(changed.renewalInfo(at: change.createdDate).renewalBillingPlanType == .monthly)
        let expiry = try #require(notifications.last)
        #expect(expiry.transaction?.expiresDate == secondEnd, "it ends with the commitment")
        #expect(expiry.transaction?.commitmentInfo?.billingPeriodNumber == 12)
    }

    /// A month that fails to bill in the middle of a commitment: billing retry with a grace
    /// period (access goes on), the same payment number once billing recovers, and the months
    /// after it, the commitment's end with them, moved by as long as it took.
    @Test func aMonthThatFailsToBillIsRetriedWithGraceAndMovesTheCommitmentsEnd() async throws {
        var settings = Self.listening
        settings["grace-period"] = "on"
        var app = try await launch(settings: settings)
        let first = try #require(await app.store.purchase(DemoCatalog.proYearly, options: Self.monthly).transaction)
        let end = try #require(first.commitmentInfo?.expirationDate)
        demo.clock.advance(by: 10)
        let second = try await nextRenewal(&app, after: [first])
        #expect(second.commitmentInfo?.billingPeriodNumber == 2)

        try await app.backend.subscriptions.setBillingIssue(first.transactionID, on: true)
        demo.clock.advance(by: 10)
        await app.backend.synchronize()
        #expect(await app.waitForStatus(.inGracePeriod).last == .inGracePeriod)
        #expect(try await app.store.currentEntitlements().map(\.state) == [.inGracePeriod], "access goes on")
        let retrying = try #require(await app.backend.renewalInfo().first)
        #expect(retrying.isInBillingRetry && retrying.gracePeriodExpiresDate != nil)
        #expect(retrying.commitmentInfo?.renewalDate == end, "nothing moved yet")

        demo.clock.advance(by: 4)
        try await app.backend.subscriptions.setBillingIssue(first.transactionID, on: false)
        let third = try await nextRenewal(&app, after: [first, second])
        #expect(third.purchaseDate == demo.clock.now)
        #expect(
            third.commitmentInfo
                == Transaction.CommitmentInfo(
                    billingPeriodNumber: 3, totalBillingPeriods: 12, price: Decimal(string: "95.88")!,
                    expirationDate: end.addingTimeInterval(4)))
        #expect(await app.waitForStatus(.subscribed).last == .subscribed)
        #expect(try await renewalPayload(app).commitmentInfo?.commitmentRenewalDate == end.addingTimeInterval(4))
        let kinds = try await notificationKinds(app)
        #expect(
            kinds == [
                "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "DID_RENEW/BILLING_RECOVERY",
            ],
            "\(kinds)")
    }
}
