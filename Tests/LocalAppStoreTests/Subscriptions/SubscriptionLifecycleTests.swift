import Foundation
import StoreCore
import Testing

@testable import LocalAppStore

@Suite struct StoreTimeRateTests {
    let month = SubscriptionPeriod(value: 1, unit: .month)
    let week = SubscriptionPeriod(value: 1, unit: .week)
    let year = SubscriptionPeriod(value: 1, unit: .year)

    @Test func rawValuesAndNamesFollowApple() {
        #expect(StoreTimeRate(rawValue: 14) == nil, "Apple never defined 14")
        #expect(StoreTimeRate(rawValue: 1006) == nil)
        #expect(StoreTimeRate(parsing: "15") == .monthlyRenewalEveryThirtySeconds)
        #expect(StoreTimeRate(parsing: "every-2-seconds") == .oneRenewalEveryTwoSeconds)
        #expect(StoreTimeRate(parsing: "sometimes") == nil)
        #expect(StoreTimeRate.all.count == 18)
    }

    @Test func scaledRatesMatchApplesTables() {
        let hourly = StoreTimeRate.monthlyRenewalEveryHour
        #expect(hourly.renewalInterval(for: month) == 3600)
        #expect(hourly.renewalInterval(for: week) == 900)
        #expect(hourly.renewalInterval(for: year) == 12 * 3600)
        let halfHourly = StoreTimeRate.monthlyRenewalEveryThirtyMinutes
        #expect(halfHourly.renewalInterval(for: week) == 600)
        #expect(halfHourly.renewalInterval(for: SubscriptionPeriod(value: 3, unit: .month)) == 5400)
        #expect(halfHourly.renewalInterval(for: year) == 6 * 3600)
        let fiveMinutes = StoreTimeRate.monthlyRenewalEveryFiveMinutes
        #expect(fiveMinutes.renewalInterval(for: week) == 180)
        #expect(fiveMinutes.renewalInterval(for: SubscriptionPeriod(value: 6, unit: .month)) == 1800)
        #expect(fiveMinutes.renewalInterval(for: year) == 3600)
        let fast = StoreTimeRate.monthlyRenewalEveryThirtySeconds
        #expect(fast.renewalInterval(for: week) == 10)
        #expect(fast.renewalInterval(for: SubscriptionPeriod(value: 3, unit: .month)) == 90)
        #expect(fast.renewalInterval(for: year) == 360)
    }

    @Test func fixedRatesIgnoreThePeriod() {
        #expect(StoreTimeRate.oneRenewalEveryTwoSeconds.renewalInterval(for: year) == 2)
        #expect(StoreTimeRate.oneRenewalEveryFiveMinutes.renewalInterval(for: week) == 300)
        #expect(StoreTimeRate.oneRenewalEveryFiveMinutes.gracePeriod(for: week) == 300)
        // Billing retry lasts twice the interval: 10 minutes, 4 seconds.
        #expect(StoreTimeRate.oneRenewalEveryFiveMinutes.billingRetryPeriod(for: year) == 600)
        #expect(StoreTimeRate.oneRenewalEveryTwoSeconds.billingRetryPeriod(for: week) == 4)
    }

    @Test func realTimeFollowsTheCalendar() {
        let jan31 = Date(timeIntervalSince1970: 1_769_817_600)  // 2026-01-31
        #expect(StoreTimeRate.realTime.end(of: month, startingAt: jan31) == month.advance(jan31))
        #expect(StoreTimeRate.realTime.gracePeriod(for: week) == 6 * 86_400)
        #expect(StoreTimeRate.realTime.billingRetryPeriod(for: month) == 60 * 86_400)
    }
}

@Suite struct SubscriptionLifecycleTests {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)
    let rate = StoreTimeRate.oneRenewalEveryTenSeconds
    let periods: [String: SubscriptionPeriod] = [
        "basic": SubscriptionPeriod(value: 1, unit: .month), "pro": SubscriptionPeriod(value: 1, unit: .month),
    ]

    func fresh() -> SubscriptionLifecycle {
        SubscriptionLifecycle(
            originalTransactionID: "1", groupID: "pass", productID: "basic", periodStart: t0,
            periodEnd: t0.addingTimeInterval(10), webOrderLineItemID: 1)
    }

    func advance(
        _ s: inout SubscriptionLifecycle, _ seconds: TimeInterval, grace: Bool = false
    ) -> [SubscriptionLifecycle.Event] {
        s.advance(to: t0.addingTimeInterval(seconds), rate: rate, gracePeriodEnabled: grace) { periods[$0] }
    }

    @Test func renewalsThatFellDueAreAllReportedInOrder() {
        var s = fresh()
        let events = advance(&s, 35)
        #expect(
            events == [
                .renewed(
                    productID: "basic", start: t0.addingTimeInterval(10), end: t0.addingTimeInterval(20),
                    webOrderLineItemID: 2),
                .renewed(
                    productID: "basic", start: t0.addingTimeInterval(20), end: t0.addingTimeInterval(30),
                    webOrderLineItemID: 3),
                .renewed(
                    productID: "basic", start: t0.addingTimeInterval(30), end: t0.addingTimeInterval(40),
                    webOrderLineItemID: 4),
            ])
        #expect(advance(&s, 39).isEmpty)
    }

    @Test func cancelKeepsAccessToTheEndOfThePeriodThenLapses() {
        var s = fresh()
        s.willAutoRenew = false
        #expect(advance(&s, 5).isEmpty)
        #expect(s.isActive(at: t0.addingTimeInterval(5)))
        #expect(advance(&s, 12) == [.expired(at: t0.addingTimeInterval(10), intent: .cancelled)])
        #expect(!s.isActive(at: t0.addingTimeInterval(12)))
        #expect(s.renewalInfo(at: t0.addingTimeInterval(12)).expirationIntent == .cancelled)
    }

    /// Apple's `renewalDate` is always there: the end of the latest period, even when it will
    /// not renew or has expired.
    @Test func renewalDateIsTheLatestPeriodsEndWhetherItRenewsOrNot() {
        var s = fresh()
        #expect(s.renewalInfo(at: t0).renewalDate == t0.addingTimeInterval(10))
        s.willAutoRenew = false
        #expect(s.renewalInfo(at: t0.addingTimeInterval(5)).renewalDate == t0.addingTimeInterval(10), "auto-renew off")
        _ = advance(&s, 12)
        #expect(
            s.renewalInfo(at: t0.addingTimeInterval(12)).renewalDate == t0.addingTimeInterval(10), "expired, voluntary")
        var failing = fresh()
        failing.hasBillingIssue = true
        #expect(advance(&failing, 60).last == .expired(at: t0.addingTimeInterval(30), intent: .billingError))
        #expect(
            failing.renewalInfo(at: t0.addingTimeInterval(60)).renewalDate == t0.addingTimeInterval(10),
            "expired in billing retry")
        var refunded = fresh()
        #expect(
            refunded.revoke(at: t0.addingTimeInterval(3)) == [.expired(at: t0.addingTimeInterval(3), intent: .unknown)])
        #expect(!refunded.isActive(at: t0.addingTimeInterval(4)))
        #expect(refunded.renewalInfo(at: t0.addingTimeInterval(4)).renewalDate == t0.addingTimeInterval(10), "refunded")
    }

    @Test func downgradeWaitsForTheNextRenewal() {
        var pro = SubscriptionLifecycle(
            originalTransactionID: "1", groupID: "pass", productID: "pro", periodStart: t0,
            periodEnd: t0.addingTimeInterval(10), webOrderLineItemID: 1)
        pro.autoRenewProductID = "basic"
        #expect(pro.productID == "pro")
        let events = pro.advance(to: t0.addingTimeInterval(11), rate: rate, gracePeriodEnabled: false) { periods[$0] }
        #expect(
            events.first
                == .renewed(
                    productID: "basic", start: t0.addingTimeInterval(10), end: t0.addingTimeInterval(20),
                    webOrderLineItemID: 2))
        #expect(pro.productID == "basic")
    }

    @Test func upgradeStartsANewPeriodAtOnce() throws {
        var s = fresh()
        let events = s.switchNow(
            to: "pro", at: t0.addingTimeInterval(4), period: try #require(periods["pro"]), rate: rate)
        #expect(
            events == [
                .renewed(
                    productID: "pro", start: t0.addingTimeInterval(4), end: t0.addingTimeInterval(14),
                    webOrderLineItemID: 2)
            ])
    }

    @Test func billingRetryThenRecovery() {
        var s = fresh()
        s.hasBillingIssue = true
        #expect(advance(&s, 11) == [.enteredBillingRetry(at: t0.addingTimeInterval(10), graceEnd: nil)])
        #expect(!s.isActive(at: t0.addingTimeInterval(11)))
        #expect(s.renewalInfo(at: t0.addingTimeInterval(11)).isInBillingRetry)
        let recovered = s.resolveBillingIssue(at: t0.addingTimeInterval(15), rate: rate) { periods[$0] }
        #expect(
            recovered == [
                .renewed(
                    productID: "basic", start: t0.addingTimeInterval(15), end: t0.addingTimeInterval(25),
                    webOrderLineItemID: 2)
            ])
        #expect(s.isActive(at: t0.addingTimeInterval(16)))
    }

    @Test func graceThenExpiryWhenBillingNeverRecovers() {
        var s = fresh()
        s.hasBillingIssue = true
        #expect(
            advance(&s, 11, grace: true) == [
                .enteredBillingRetry(at: t0.addingTimeInterval(10), graceEnd: t0.addingTimeInterval(20))
            ])
        #expect(s.isActive(at: t0.addingTimeInterval(15)), "in grace")
        #expect(s.isInGracePeriod(at: t0.addingTimeInterval(15)))
        #expect(!s.isActive(at: t0.addingTimeInterval(21)))
        #expect(!s.isInGracePeriod(at: t0.addingTimeInterval(21)), "grace over, billing retry goes on")
        // Billing retry lasts two renewal intervals at the fixed rates.
        #expect(advance(&s, 60, grace: true) == [.expired(at: t0.addingTimeInterval(30), intent: .billingError)])
    }

    @Test func aFailedForcedRenewalEndsThePeriodNowAndStartsBillingRetry() {
        var s = fresh()
        let now = t0.addingTimeInterval(4)
        #expect(
            s.failRenewal(at: now, rate: rate, gracePeriodEnabled: true) { periods[$0] }
                == [.enteredBillingRetry(at: now, graceEnd: now.addingTimeInterval(10))])
        #expect(s.periodEnd == now)
        #expect(s.isInGracePeriod(at: now.addingTimeInterval(5)) && s.isActive(at: now.addingTimeInterval(5)))
        #expect(
            s.failRenewal(at: now.addingTimeInterval(1), rate: rate, gracePeriodEnabled: true) { periods[$0] }.isEmpty,
            "already in billing retry")
        // Billing retry runs its course from the failure: two renewal intervals.
        #expect(advance(&s, 60) == [.expired(at: now.addingTimeInterval(20), intent: .billingError)])
        #expect(!s.isInGracePeriod(at: now.addingTimeInterval(5)), "expired")
    }

    @Test func survivesAnEncodeDecodeRoundTrip() throws {
        var s = fresh()
        _ = s.expireNow(at: t0.addingTimeInterval(3), intent: .unknown)
        let decoded = try JSONDecoder().decode(SubscriptionLifecycle.self, from: JSONEncoder().encode(s))
        #expect(decoded == s)
        #expect(decoded.expiration?.intent == .unknown)
    }
}
