import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// A yearly subscription sold monthly over a 12-month commitment, in the storefront's words:
/// the details list the monthly plan with its own free week, and My Purchases says which
/// payment of 12 the customer is on and when the commitment ends, in English and Japanese.
@Suite struct CommitmentTests {
    let month = SubscriptionPeriod(value: 1, unit: .month)
    let year = SubscriptionPeriod(value: 1, unit: .year)

    func loaded(japanese: Bool) -> (State, Product) {
        var state = State(width: 110, height: 30)
        send(&state, .tick(Fixtures.start), .contextLoaded(.success(Fixtures.context(japanese: japanese))))
        let week = SubscriptionOffer(
            id: nil, kind: .introductory, paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .week),
            periodCount: 1, price: 0, displayPrice: japanese ? "¥0" : "$0.00")
        let terms = [
            PricingTerms(
                billingPlanType: .billedUpfront, billingPrice: japanese ? 12000 : 79.99,
                billingDisplayPrice: japanese ? "¥12,000" : "$79.99", billingPeriod: year),
            PricingTerms(
                billingPlanType: .monthly, billingPrice: japanese ? 1199 : 7.99,
                billingDisplayPrice: japanese ? "¥1,199" : "$7.99", billingPeriod: month,
                commitmentInfo: PricingTerms.CommitmentInfo(
                    price: japanese ? 14384 : 95.88, displayPrice: japanese ? "¥14,384" : "$95.88", period: year),
                subscriptionOffers: [week]),
        ]
        let info = SubscriptionInfo(
            groupID: "g", groupDisplayName: "Premium", groupLevel: 1, period: year, introductoryOffer: nil,
            promotionalOffers: [], pricingTerms: terms)
        let product = Product(
            id: yearly, type: .autoRenewable, displayName: japanese ? "プレミアム（年額）" : "Premium Yearly",
            description: "", price: japanese ? 12000 : 79.99, displayPrice: japanese ? "¥12,000" : "$79.99",
            currencyCode: japanese ? "JPY" : "USD", subscription: info)
        send(&state, .catalog(.productsLoaded(.success([product]))))
        return (state, product)
    }

    @Test(arguments: [false, true])
    func theDetailsListTheMonthlyPlan(japanese: Bool) {
        let (state, product) = loaded(japanese: japanese)
        let facts = ProductFacts.lines(product, state, width: 110).map(\.0)
        let expected =
            japanese
            ? "• または ¥1,199/月（12か月）· 合計 ¥14,384"
            : "• Or $7.99/month for 12 months · $95.88 in all · 1 week free, then $7.99/month"
        #expect(facts.contains { $0.hasPrefix(expected) }, "\(facts)")
    }

    @Test(arguments: [false, true])
    func myPurchasesShowsThePaymentAndTheCommitmentsEnd(japanese: Bool) {
        var (state, _) = loaded(japanese: japanese)
        let end = Fixtures.start.addingTimeInterval(300 * 86_400)
        var third = Fixtures.transaction("3", yearly, .autoRenewable)
        third.expiresDate = Fixtures.start.addingTimeInterval(20 * 86_400)
        third.billingPlanType = .monthly
        third.commitmentInfo = Transaction.CommitmentInfo(
            billingPeriodNumber: 3, totalBillingPeriods: 12, price: 95.88, expirationDate: end)
        send(
            &state,
            .purchasesLoaded(
                .success(PurchasesSnapshot(transactions: [third], activeUntil: [yearly: third.expiresDate!]))))
        let status = ProductStatus.subscription(yearly, in: state)?.text ?? ""
        let expected =
            japanese ? "3回目の支払い（全12回）· 契約は2026-10-28まで" : "Payment 3 of 12 · commitment ends 2026-10-28"
        #expect(status.hasSuffix(expected), "\(status)")
    }
}
