import Foundation
import StoreCore
import Testing

@testable import LocalAppStore

/// The 12-month commitment as the pure lifecycle runs it: a month a payment, the customer's
/// choice taking effect at the commitment's end, billing retry inside it.
@Suite struct CommitmentLifecycleTests {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)
    /// Every renewal of any length takes 2 seconds: the year is 24 seconds.
    let rate = StoreTimeRate.oneRenewalEveryTwoSeconds
    let periods: [String: SubscriptionPeriod] = [
        "yearly": SubscriptionPeriod(value: 1, unit: .year), "yearly.plus": SubscriptionPeriod(value: 1, unit: .year),
    ]

    func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    func committed() -> SubscriptionLifecycle {
        let billing = PeriodBilling.first(of: .monthly, startingAt: t0, rate: rate)
        return SubscriptionLifecycle(
            originalTransactionID: "1", groupID: "pass", productID: "yearly", periodStart: t0, periodEnd: at(2),
            webOrderLineItemID: 1, billing: billing)
    }

    func advance(_ s: inout SubscriptionLifecycle, _ seconds: TimeInterval) -> [SubscriptionLifecycle.Event] {
        s.advance(to: at(seconds), rate: rate, gracePeriodEnabled: true) { periods[$0] }
    }

    func numbers(_ events: [SubscriptionLifecycle.Event]) -> [Int] {
        events.compactMap {
            if case .renewed(_, _, _, _, let billing) = $0 { billing?.commitment?.billingPeriodNumber } else { nil }
        }
    }

    @Test func firstPaymentKnowsWhenTheCommitmentEnds() {
        let billing = PeriodBilling.first(of: .monthly, startingAt: t0, rate: rate)
        #expect(billing.commitment == CommitmentProgress(billingPeriodNumber: 1, expiresDate: at(24)))
        #expect(billing.billingPeriod(of: SubscriptionPeriod(value: 1, unit: .year)).unit == .month)
        #expect(PeriodBilling.first(of: .billedUpfront, startingAt: t0, rate: rate).commitment == nil)
    }

    @Test func eachMonthIsAPaymentAndTheTwelfthEndsTheCommitmentIntoANewOne() {
        var s = committed()
        let year = advance(&s, 23)
        #expect(numbers(year) == Array(2...12))
        #expect(s.billing?.commitment?.expiresDate == at(24))
        // The 12th payment's end starts a new commitment, as the customer left it.
        let next = advance(&s, 25)
        #expect(numbers(next) == [1])
        #expect(s.billing?.commitment?.expiresDate == at(48))
        #expect(s.productID == "yearly")
    }

    @Test func autoRenewOffEndsAtTheCommitmentsEndNotTheMonths() {
        var s = committed()
        _ = advance(&s, 5)
        s.willAutoRenew = false
        let info = s.renewalInfo(at: at(5))
        #expect(info.willAutoRenew, "the next month is still billed")
        #expect(info.commitmentInfo?.willAutoRenew == false)
        #expect(info.commitmentInfo?.renewalDate == at(24))
        let rest = advance(&s, 30)
        #expect(numbers(rest) == Array(4...12))
        #expect(rest.last == .expired(at: at(24), intent: .cancelled))
    }

    @Test func theCommitmentRenewsIntoTheUpFrontPlanOrAnotherProductAsChosen() {
        var s = committed()
        s.renewalBillingPlanType = .billedUpfront
        s.autoRenewProductID = "yearly.plus"
        let info = s.renewalInfo(at: at(1))
        #expect(info.autoRenewProductID == "yearly", "next month stays the committed product")
        #expect(info.renewalBillingPlanType == .monthly)
        #expect(info.commitmentInfo?.autoRenewPreference == "yearly.plus")
        #expect(info.commitmentInfo?.renewalBillingPlanType == .billedUpfront)
        let events = advance(&s, 25)
        guard case .renewed(let product, let start, let end, _, let billing) = events.last else {
            Issue.record("no renewal")
            return
        }
        #expect(product == "yearly.plus")
        #expect(start == at(24) && end == at(26), "one year up front, at this rate one renewal")
        #expect(billing == PeriodBilling(planType: .billedUpfront))
        #expect(s.renewalInfo(at: at(25)).commitmentInfo == nil)
    }

    @Test func billingRetryInsideACommitmentKeepsItsCountAndMovesItsEnd() {
        var s = committed()
        _ = advance(&s, 3)
        s.hasBillingIssue = true
        let failed = advance(&s, 5)
        #expect(failed == [.enteredBillingRetry(at: at(4), graceEnd: at(6))])
        let resolved = s.resolveBillingIssue(at: at(5), rate: rate) { periods[$0] }
        #expect(numbers(resolved) == [3])
        // Payment 3 started a second late: the remaining months follow it.
        #expect(s.billing?.commitment?.expiresDate == at(25))
    }

    @Test func aForcedRenewalIsTheNextMonthEvenWithAutoRenewOff() {
        var s = committed()
        s.willAutoRenew = false
        let events = s.renewNow(at: at(1), rate: rate) { periods[$0] }
        #expect(numbers(events ?? []) == [2])
    }

    @Test func anExtensionMovesTheCommitmentsEnd() {
        var s = committed()
        s.extendPeriod(to: at(3))
        #expect(s.periodEnd == at(3))
        #expect(s.billing?.commitment?.expiresDate == at(25))
    }

    @Test func anUpgradeEndsTheCommitmentAndStartsThePlanBought() {
        var s = committed()
        let events = s.switchNow(
            to: "yearly.plus", at: at(5), period: SubscriptionPeriod(value: 1, unit: .year), rate: rate,
            plan: .monthly)
        #expect(numbers(events) == [1])
        #expect(s.billing?.commitment?.expiresDate == at(29))
    }

    @Test func lifecyclesJournaledBeforeBillingPlansStillRead() throws {
        let old = SubscriptionLifecycle(
            originalTransactionID: "1", groupID: "pass", productID: "yearly", periodStart: t0, periodEnd: at(2),
            webOrderLineItemID: 1)
        let data = try JSONEncoder().encode(old)
        let read = try JSONDecoder().decode(SubscriptionLifecycle.self, from: data)
        #expect(read == old && read.billing == nil && read.renewalInfo(at: t0).commitmentInfo == nil)
        #expect(
            try JSONDecoder().decode(SubscriptionLifecycle.self, from: JSONEncoder().encode(committed())) == committed()
        )
    }
}
