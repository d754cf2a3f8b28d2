import Foundation
import Testing

@testable import StoreCore

@Suite struct EntitlementCalculatorTests {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    let month = SubscriptionPeriod(value: 1, unit: .month)
    let calculator = EntitlementCalculator(nonRenewingDuration: {
        $0 == "season" ? SubscriptionPeriod(value: 3, unit: .month) : nil
    })

    func sub(
        _ id: String, _ product: String = "plus.monthly", start: Date, original: String = "100",
        group: String = "pass", upgraded: Bool = false, refunded: Date? = nil
    ) -> PurchaseRecord {
        PurchaseRecord(
            productID: product, productType: .autoRenewable, transactionID: id, originalTransactionID: original,
            purchaseDate: start, expiresDate: month.advance(start), cancellationDate: refunded,
            subscriptionGroupID: group, isUpgraded: upgraded)
    }

    func renewals(_ count: Int) -> [PurchaseRecord] {
        (0..<count).map { sub(String(100 + $0), start: month.advance(t0, by: $0)) }
    }

    @Test func nonConsumablesCountConsumablesAndRefundsNever() {
        let records = [
            PurchaseRecord(
                productID: "pro", productType: .nonConsumable, transactionID: "1", originalTransactionID: "1",
                purchaseDate: t0),
            PurchaseRecord(
                productID: "coins", productType: .consumable, transactionID: "2", originalTransactionID: "2",
                purchaseDate: t0),
            PurchaseRecord(
                productID: "pack", productType: .nonConsumable, transactionID: "3", originalTransactionID: "3",
                purchaseDate: t0, cancellationDate: t0.addingTimeInterval(60)),
        ]
        let now = t0.addingTimeInterval(3600)
        #expect(calculator.currentEntitlements(records: records, renewalInfo: [], at: now).map(\.productID) == ["pro"])
    }

    /// A restored copy is dated at the restore: a copy of an old period must not beat the
    /// current period, which ends later.
    @Test func aRestoredCopyOfAnOldPeriodDoesNotHideTheCurrentOne() throws {
        let old = sub("100", "pro.monthly", start: t0)
        let current = sub("101", "basic.monthly", start: month.advance(t0))
        var copy = sub("102", "pro.monthly", start: month.advance(t0, by: 1).addingTimeInterval(86_400))
        copy.expiresDate = old.expiresDate
        let now = month.advance(t0).addingTimeInterval(2 * 86_400)
        let status = try #require(calculator.statuses(records: [old, current, copy], renewalInfo: [], at: now).first)
        #expect(status.state == .subscribed && status.transaction.transactionID == "101")
        #expect(
            calculator.currentEntitlements(records: [old, current, copy], renewalInfo: [], at: now).map(\.productID)
                == ["basic.monthly"])
    }

    @Test func renewedThreeTimesIsSubscribedUntilTheLastPeriodEnds() throws {
        let records = renewals(4)
        let inside = month.advance(t0, by: 3).addingTimeInterval(86_400)
        let status = try #require(calculator.statuses(records: records, renewalInfo: [], at: inside).first)
        #expect(status.state == .subscribed)
        #expect(status.transaction.transactionID == "103")
        let entitlements = calculator.currentEntitlements(records: records, renewalInfo: [], at: inside)
        #expect(entitlements.map(\.transactionID) == ["103"])
        #expect(entitlements.first?.expiresDate == month.advance(t0, by: 4))

        let after = month.advance(t0, by: 4).addingTimeInterval(1)
        #expect(calculator.statuses(records: records, renewalInfo: [], at: after).first?.state == .expired)
        #expect(calculator.currentEntitlements(records: records, renewalInfo: [], at: after).isEmpty)
    }

    @Test func graceKeepsAccessBillingRetryAloneDoesNot() {
        let records = renewals(1)
        let lapsed = month.advance(t0).addingTimeInterval(3600)
        let grace = RenewalInfo(
            originalTransactionID: "100", currentProductID: "plus.monthly", isInBillingRetry: true,
            gracePeriodExpiresDate: lapsed.addingTimeInterval(86_400))
        #expect(calculator.statuses(records: records, renewalInfo: [grace], at: lapsed).first?.state == .inGracePeriod)
        #expect(
            calculator.currentEntitlements(records: records, renewalInfo: [grace], at: lapsed).first?.state
                == .inGracePeriod)

        let retry = RenewalInfo(originalTransactionID: "100", currentProductID: "plus.monthly", isInBillingRetry: true)
        #expect(
            calculator.statuses(records: records, renewalInfo: [retry], at: lapsed).first?.state
                == .inBillingRetryPeriod)
        #expect(calculator.currentEntitlements(records: records, renewalInfo: [retry], at: lapsed).isEmpty)
    }

    @Test func aRefundMidPeriodRevokes() {
        let records = [sub("100", start: t0, refunded: t0.addingTimeInterval(86_400))]
        let now = t0.addingTimeInterval(2 * 86_400)
        #expect(calculator.statuses(records: records, renewalInfo: [], at: now).first?.state == .revoked)
        #expect(calculator.currentEntitlements(records: records, renewalInfo: [], at: now).isEmpty)
    }

    @Test func anUpgradeReplacesTheLowerLevelAtOnce() {
        let mid = t0.addingTimeInterval(10 * 86_400)
        let records = [
            sub("100", "basic.monthly", start: t0, upgraded: true),
            sub("101", "pro.monthly", start: mid, original: "100"),
        ]
        let entitlements = calculator.currentEntitlements(
            records: records, renewalInfo: [], at: mid.addingTimeInterval(60))
        #expect(entitlements.map(\.productID) == ["pro.monthly"], "one active subscription per group")
    }

    /// StoreKit 2's `currentEntitlements`: "the latest transaction for each non-renewing
    /// subscription, including finished ones"; how long it lasts is the app's to say.
    @Test func withoutADurationTheLatestNonRenewingTransactionIsAnEntitlement() {
        let season = { (id: String, day: Double, refunded: Date?) in
            PurchaseRecord(
                productID: "winter", productType: .nonRenewing, transactionID: id, originalTransactionID: id,
                purchaseDate: self.t0.addingTimeInterval(day * 86_400), cancellationDate: refunded)
        }
        let records = [season("1", 0, nil), season("2", 400, nil), season("3", 10, nil)]
        let later = t0.addingTimeInterval(2000 * 86_400)
        let entitlements = EntitlementCalculator().currentEntitlements(records: records, renewalInfo: [], at: later)
        #expect(entitlements.map(\.transactionID) == ["2"])
        #expect(entitlements.first?.expiresDate == nil && entitlements.first?.productType == .nonRenewing)
        let refunded = records + [season("4", 500, t0.addingTimeInterval(501 * 86_400))]
        #expect(
            EntitlementCalculator().currentEntitlements(records: refunded, renewalInfo: [], at: later).map(
                \.transactionID) == ["2"],
            "a refunded transaction is never an entitlement")
    }

    @Test func nonRenewingLastsTheDurationTheAppDefines() {
        let records = [
            PurchaseRecord(
                productID: "season", productType: .nonRenewing, transactionID: "9",
                originalTransactionID: "9", purchaseDate: t0)
        ]
        let inside = t0.addingTimeInterval(60 * 86_400)
        let after = t0.addingTimeInterval(100 * 86_400)
        #expect(
            calculator.currentEntitlements(records: records, renewalInfo: [], at: inside).first?.expiresDate
                == SubscriptionPeriod(value: 3, unit: .month).advance(t0))
        #expect(calculator.currentEntitlements(records: records, renewalInfo: [], at: after).isEmpty)
    }
}

@Suite struct PurchaseQueriesTests {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)

    func record(_ id: String, _ product: String, start: Date, expires: Date?, cancelled: Date? = nil) -> PurchaseRecord
    {
        PurchaseRecord(
            productID: product, productType: expires == nil ? .nonConsumable : .autoRenewable,
            transactionID: id, originalTransactionID: "1", purchaseDate: start, expiresDate: expires,
            cancellationDate: cancelled)
    }

    @Test func verifyPurchaseIgnoresRefunds() {
        let bought = record("1", "pro", start: t0, expires: nil)
        #expect(PurchaseQueries.verifyPurchase(productID: "pro", in: [bought]) == .purchased(bought))
        let refunded = record("2", "pack", start: t0, expires: nil, cancelled: t0)
        #expect(PurchaseQueries.verifyPurchase(productID: "pack", in: [refunded]) == .notPurchased)
        #expect(PurchaseQueries.verifyPurchase(productID: "other", in: [bought]) == .notPurchased)
    }

    @Test func subscriptionsArePurchasedUntilOrExpiredSince() {
        let a = record("1", "basic", start: t0, expires: t0.addingTimeInterval(1000))
        let b = record("2", "plus", start: t0.addingTimeInterval(1000), expires: t0.addingTimeInterval(2000))
        let group: Set = ["basic", "plus"]
        #expect(
            PurchaseQueries.verifySubscriptions(
                .autoRenewable, productIDs: group, in: [a, b], at: t0.addingTimeInterval(1500))
                == .purchased(expiresDate: t0.addingTimeInterval(2000), items: [b, a]))
        #expect(
            PurchaseQueries.verifySubscriptions(
                .autoRenewable, productIDs: group, in: [a, b], at: t0.addingTimeInterval(2500))
                == .expired(expiresDate: t0.addingTimeInterval(2000), items: [b, a]))
        #expect(
            PurchaseQueries.verifySubscriptions(.autoRenewable, productIDs: ["gold"], in: [a, b], at: t0)
                == .notPurchased)
    }

    @Test func cancellationDatesAreHonoured() {
        let refunded = record(
            "1", "plus", start: t0, expires: t0.addingTimeInterval(1000), cancelled: t0.addingTimeInterval(10))
        #expect(
            PurchaseQueries.verifySubscriptions(
                .autoRenewable, productIDs: ["plus"], in: [refunded], at: t0.addingTimeInterval(20))
                == .notPurchased)
    }

    @Test func introOfferEligibilityIsOncePerGroupEvenAfterARefund() {
        var refunded = record(
            "1", "plus", start: t0, expires: t0.addingTimeInterval(1000), cancelled: t0.addingTimeInterval(10))
        refunded.subscriptionGroupID = "premium"
        let pro = record("2", "pro", start: t0, expires: nil)
        #expect(PurchaseQueries.isEligibleForIntroOffer(groupID: "premium", in: [pro]))
        #expect(!PurchaseQueries.isEligibleForIntroOffer(groupID: "premium", in: [pro, refunded]))
        #expect(PurchaseQueries.isEligibleForIntroOffer(groupID: "other", in: [pro, refunded]))
    }

    @Test func nonRenewingUsesTheValidDuration() {
        let season = record("1", "season", start: t0, expires: nil)
        #expect(
            PurchaseQueries.verifySubscriptions(
                .nonRenewing(validDuration: 500), productIDs: ["season"], in: [season], at: t0.addingTimeInterval(100))
                == .purchased(expiresDate: t0.addingTimeInterval(500), items: [season]))
        #expect(
            PurchaseQueries.verifySubscriptions(
                .nonRenewing(validDuration: 500), productIDs: ["season"], in: [season], at: t0.addingTimeInterval(600))
                == .expired(expiresDate: t0.addingTimeInterval(500), items: [season]))
    }
}
