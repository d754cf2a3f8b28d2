import Catalog
import Foundation
import Receipts
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// Monthly payments over a 12-month commitment, end to end on the Demo catalog's Pro (Yearly):
/// sold up front ($79.99) and monthly ($7.99, $95.88 in all), its free week only on the monthly
/// plan. At one renewal every 10 seconds the year is 2 minutes of store clock.
extension SubscriptionScenarioTests {
    static let monthly = PurchaseOptions(billingPlanType: .monthly)

    @Test func theProductListsBothPlansWithTheirOffers() async throws {
        let app = try await launch()
        let product = try #require(try await app.store.requestProducts([DemoCatalog.proYearly]).products.first)
        let terms = try #require(product.subscription?.pricingTerms)
        #expect(terms.map(\.billingPlanType) == [.billedUpfront, .monthly])
        #expect(terms[0].billingPrice == Decimal(string: "79.99") && terms[0].billingPeriod.unit == .year)
        #expect(terms[0].commitmentInfo == nil && terms[0].subscriptionOffers.isEmpty)
        #expect(terms[1].billingPrice == Decimal(string: "7.99") && terms[1].billingDisplayPrice == "$7.99")
        #expect(terms[1].billingPeriod == SubscriptionPeriod(value: 1, unit: .month))
        #expect(terms[1].commitmentInfo?.price == Decimal(string: "95.88"))
        #expect(terms[1].commitmentInfo?.displayPrice == "$95.88")
        #expect(terms[1].subscriptionOffers.map(\.kind) == [.introductory])
        #expect(product.subscription?.introductoryOffer == nil, "bought up front, there is no free week")
    }

    @Test func twelveMonthlyPaymentsThenANewCommitment() async throws {
        var app = try await launch()
        let start = demo.clock.now
        let first = try #require(await app.store.purchase(DemoCatalog.proYearly, options: Self.monthly).transaction)
        #expect(first.billingPlanType == .monthly && first.offerType == .introductory && first.price == 0)
        let end = start.addingTimeInterval(120)
        #expect(
            first.commitmentInfo
                == Transaction.CommitmentInfo(
                    billingPeriodNumber: 1, totalBillingPeriods: 12, price: Decimal(string: "95.88")!,
                    expirationDate: end))
        let signed = try transactionPayload(first)
        #expect(signed.billingPlanType == .monthly)
        #expect(
            signed.commitmentInfo
                == TransactionCommitmentInfo(
                    billingPeriodNumber: 1, totalBillingPeriods: 12, commitmentPrice: 95_880,
                    commitmentExpiresDate: end))
        var known = [first]
        for month in 2...12 {
            demo.clock.advance(by: 10)
            let renewal = try await nextRenewal(&app, after: known)
            known.append(renewal)
            #expect(renewal.commitmentInfo?.billingPeriodNumber == month)
            #expect(renewal.price == Decimal(string: "7.99") && renewal.offerType == nil)
            #expect(renewal.commitmentInfo?.expirationDate == end)
            #expect(try transactionPayload(renewal).transactionReason == .renewal)
        }
        #expect(known.last?.expiresDate == end)
        let info = try await renewalPayload(app)
        #expect(info.renewalBillingPlanType == .monthly && info.renewalPrice == 7_990)
        #expect(info.commitmentInfo?.commitmentAutoRenewStatus == .on)
        #expect(info.commitmentInfo?.commitmentRenewalDate == end)
        #expect(info.commitmentInfo?.commitmentRenewalPrice == 7_990)
        #expect(info.commitmentInfo?.commitmentAutoRenewProductId == DemoCatalog.proYearly)

        demo.clock.advance(by: 10)
        let renewed = try await nextRenewal(&app, after: known)
        #expect(renewed.commitmentInfo?.billingPeriodNumber == 1)
        #expect(renewed.commitmentInfo?.expirationDate == end.addingTimeInterval(120))
        #expect(renewed.originalTransactionID == first.transactionID)
        #expect(try await entitled(app) == [DemoCatalog.proYearly])
    }

    @Test func cancellingDuringTheCommitmentEndsItAtItsEnd() async throws {
        var app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.proYearly, options: Self.monthly).transaction)
        let end = try #require(first.commitmentInfo?.expirationDate)
        try await app.backend.subscriptions.setAutoRenew(first.transactionID, on: false)
        let info = try #require(await app.backend.renewalInfo().first)
        #expect(info.willAutoRenew, "the next month is still billed")
        #expect(info.commitmentInfo?.willAutoRenew == false)
        #expect(try await renewalPayload(app).commitmentInfo?.commitmentAutoRenewStatus == .off)
        var known = [first]
        for _ in 2...12 {
            demo.clock.advance(by: 10)
            known.append(try await nextRenewal(&app, after: known))
        }
        demo.clock.advance(by: 10)
        #expect(await app.waitForStatus(.expired).last == .expired)
        let lapsed = try #require(await app.backend.renewalInfo().first)
        #expect(lapsed.expirationIntent == .cancelled && lapsed.renewalDate == end && !lapsed.willAutoRenew)
        #expect(lapsed.commitmentInfo == nil, "no commitment runs any more")
        #expect(try await app.store.history().count == 12, "twelve payments, no thirteenth")
    }

    @Test func theCommitmentRenewsIntoTheUpFrontPlanWhenChosen() async throws {
        var app = try await launch()
        let first = try #require(await app.store.purchase(DemoCatalog.proYearly, options: Self.monthly).transaction)
        try await app.backend.subscriptions.setRenewal(first.transactionID, productID: nil, plan: .billedUpfront)
        let info = try await renewalPayload(app)
        #expect(info.renewalBillingPlanType == .monthly, "the next month is still monthly")
        #expect(info.commitmentInfo?.commitmentRenewalBillingPlanType == .billedUpfront)
        #expect(info.commitmentInfo?.commitmentRenewalPrice == 79_990)
        var known = [first]
        for _ in 2...13 {
            demo.clock.advance(by: 10)
            known.append(try await nextRenewal(&app, after: known))
        }
        let yearly = try #require(known.last)
        #expect(yearly.billingPlanType == .billedUpfront && yearly.commitmentInfo == nil)
        #expect(yearly.price == Decimal(string: "79.99"))
        #expect(try transactionPayload(yearly).commitmentInfo == nil)
    }

    @Test func upFrontIsTheDefaultPlanAndAPlanNotSoldIsRefused() async throws {
        let app = try await launch()
        let upFront = try #require(await app.store.purchase(DemoCatalog.proYearly).transaction)
        #expect(upFront.billingPlanType == .billedUpfront && upFront.commitmentInfo == nil)
        #expect(upFront.price == Decimal(string: "79.99") && upFront.offerType == nil)
        #expect(try transactionPayload(upFront).billingPlanType == .billedUpfront)
        let refused = await app.store.purchase(DemoCatalog.basic, options: Self.monthly)
        guard case .failed(.paymentInvalid(let why), _) = refused else {
            Issue.record("expected paymentInvalid, got \(refused)")
            return
        }
        #expect(why.contains(DemoCatalog.basic) && why.contains("MONTHLY"))
        let plain = try #require(await app.store.purchase(DemoCatalog.coins).transaction)
        #expect(plain.billingPlanType == nil)
        #expect(try transactionPayload(plain).rawBillingPlanType == nil)
    }

    @Test func aDisabledPlanIsNotSold() async throws {
        let text = try String(contentsOf: DemoCatalog.url, encoding: .utf8)
        let disabled = text.replacingOccurrences(
            of: "\"8B65C4E0_MONTHLY\",\n              \"isEnabled\" : true",
            with: "\"8B65C4E0_MONTHLY\",\n              \"isEnabled\" : false")
        #expect(disabled != text)
        let catalog = try StoreKitConfiguration.decode(data: Data(disabled.utf8), file: "Demo.storekit")
        let app = try await launch(catalog: catalog)
        let refused = await app.store.purchase(DemoCatalog.proYearly, options: Self.monthly)
        guard case .failed(.paymentInvalid(let why), _) = refused else {
            Issue.record("expected paymentInvalid, got \(refused)")
            return
        }
        #expect(why.contains("not sold by the billing plan MONTHLY") && why.contains("BILLED_UPFRONT"))
        let product = try #require(try await app.store.requestProducts([DemoCatalog.proYearly]).products.first)
        #expect(product.subscription?.pricingTerms.map(\.billingPlanType) == [.billedUpfront])
    }
}
