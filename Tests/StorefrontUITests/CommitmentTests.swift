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

    func loaded(japanese: Bool, width: Int = 110) -> (State, Product) {
        var state = State(width: width, height: 30)
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
        send(&state, .purchasesLoaded(.success(third())))
        let status = ProductStatus.subscription(yearly, in: state)?.text ?? ""
        let expected =
            japanese ? "3回目の支払い（全12回）· 契約は2026-10-28まで" : "Payment 3 of 12 · commitment ends 2026-10-28"
        #expect(status.hasSuffix(expected), "\(status)")
    }

    /// The third payment of a commitment ending `end`, and the subscription as the store runs it.
    func third(renewingBy plan: BillingPlanType = .monthly) -> PurchasesSnapshot {
        let end = Fixtures.start.addingTimeInterval(300 * 86_400)
        var third = Fixtures.transaction("3", yearly, .autoRenewable)
        third.expiresDate = Fixtures.start.addingTimeInterval(20 * 86_400)
        third.billingPlanType = .monthly
        third.commitmentInfo = Transaction.CommitmentInfo(
            billingPeriodNumber: 3, totalBillingPeriods: 12, price: 95.88, expirationDate: end)
        let subscription = ManagedSubscription(
            originalTransactionID: "3", latestTransactionID: "3", productID: yearly, nextBillingPlanType: plan,
            phase: .active(until: third.expiresDate!), willAutoRenew: true, hasBillingIssue: false)
        return PurchasesSnapshot(
            transactions: [third], activeUntil: [yearly: third.expiresDate!], subscriptions: [subscription])
    }

    @Test(arguments: [false, true])
    func theBuySheetPicksThePlanAndDisclosesTheFirstCommitment(japanese: Bool) {
        var (state, _) = loaded(japanese: japanese)
        send(&state, .key(.enter))
        var sheet = render(state).lines.joined(separator: "\n")
        #expect(sheet.contains(japanese ? "一括払い" : "◂ Billed up front ▸"), "\(sheet)")
        #expect(sheet.contains(japanese ? "¥12,000/年" : "$79.99/year"), "\(sheet)")

        // → picks the monthly plan: its price, its commitment and its own free week.
        send(&state, .key(.right))
        sheet = render(state).lines.joined(separator: "\n")
        #expect(
            sheet.contains(
                japanese ? "¥1,199/月（12か月）· 合計 ¥14,384" : "$7.99/month for 12 months · $95.88 in all"),
            "\(sheet)")
        #expect(sheet.contains(japanese ? "月払い・12か月契約" : "◂ Monthly, 12-month commitment ▸"), "\(sheet)")
        #expect(sheet.contains(japanese ? "1週間無料" : "1 week free, then $7.99/month"), "\(sheet)")

        // Enter: the account's first commitment, so its disclosure first, and nothing bought yet.
        #expect(send(&state, .key(.enter)) == [])
        sheet = render(state).lines.joined(separator: "\n")
        #expect(
            sheet.contains(japanese ? "12回の月払い（各¥1,199）：合計 ¥14,384。" : "12 monthly payments of $7.99: $95.88 in all."),
            "\(sheet)")
        #expect(sheet.contains(japanese ? "残りの支払いは引き続き請求されます" : "the payments left are still charged"), "\(sheet)")
        #expect(
            sheet.contains(
                japanese ? "アカウント alice@example.com に一度だけ" : "Shown once for the account alice@example.com."),
            "\(sheet)")

        // Esc goes back to the sheet; Enter twice agrees and buys by the monthly plan.
        send(&state, .key(.escape))
        #expect(state.modal == .confirm && !state.buySheet.confirmation.disclosing)
        send(&state, .key(.enter))
        #expect(
            send(&state, .key(.enter)) == [
                .purchase(productID: yearly, quantity: 1, offerID: nil, billingPlan: .monthly)
            ])
    }

    @Test func anAccountThatChoseACommitmentBeforeIsNotToldAgain() {
        var (state, _) = loaded(japanese: false)
        send(&state, .purchasesLoaded(.success(third())))
        send(&state, .key(.enter), .key(.character("p")))
        #expect(
            send(&state, .key(.enter)) == [
                .purchase(productID: yearly, quantity: 1, offerID: nil, billingPlan: .monthly)
            ])
    }

    @Test func upFrontIsBoughtByNamingItsPlan() {
        var (state, _) = loaded(japanese: false)
        send(&state, .key(.enter))
        #expect(
            send(&state, .key(.enter)) == [
                .purchase(productID: yearly, quantity: 1, offerID: nil, billingPlan: .billedUpfront)
            ])
    }

    @Test(arguments: [false, true])
    func myPurchasesChoosesWhatTheCommitmentRenewsInto(japanese: Bool) {
        var (state, _) = loaded(japanese: japanese, width: 132)
        send(&state, .purchasesLoaded(.success(third())), .myPurchases(.open), .purchasesLoaded(.success(third())))
        send(&state, .key(.tab), .key(.tab))
        var screen = render(state).lines.joined(separator: "\n")
        #expect(
            screen.contains(
                japanese ? "その後：月払いプラン" : "Then Monthly plan"),
            "\(screen)")

        send(&state, .key(.character("r")))
        screen = render(state).lines.joined(separator: "\n")
        #expect(
            screen.contains(japanese ? "プレミアム（年額）の契約期間終了後" : "When the Commitment of Premium Yearly Ends"), "\(screen)")
        #expect(
            screen.contains(
                japanese
                    ? "✓ プレミアム（年額） · 月払い・12か月契約 · ¥1,199/月（12か月）· 合計 ¥14,384"
                    : "✓ Premium Yearly · Monthly, 12-month commitment · $7.99/month for 12 months · $95.88 in all"),
            "\(screen)")
        #expect(
            screen.contains(
                japanese ? "プレミアム（年額） · 一括払い · ¥12,000/年" : "Premium Yearly · Billed up front · $79.99/year"),
            "\(screen)")

        // ↑ and Enter: the up-front plan, told to the store through the subscription's latest transaction.
        send(&state, .key(.up))
        #expect(
            send(&state, .key(.enter)) == [
                .subscriptionCommand(.renewInto(productID: yearly, plan: .billedUpfront), transactionID: "3")
            ])
        #expect(state.myPurchases.renewal == nil)
        let after = third(renewingBy: .billedUpfront).subscriptions[0]
        send(
            &state,
            .transactionManager(
                .subscriptionCommandFinished(.renewInto(productID: yearly, plan: .billedUpfront), .success(after))))
        let message = state.message?.text ?? ""
        #expect(
            message.contains(
                japanese
                    ? "契約期間の終了時に"
                    : "Premium Yearly renews as Premium Yearly · Billed up front · $79.99/year when its commitment ends"
            ),
            "\(message)")
    }

    @Test func aSubscriptionOutsideACommitmentHasNoRenewalChoice() {
        var (state, _) = loaded(japanese: false)
        var snapshot = third()
        snapshot.transactions[0].commitmentInfo = nil
        snapshot.transactions[0].billingPlanType = .billedUpfront
        send(&state, .purchasesLoaded(.success(snapshot)), .myPurchases(.open), .key(.tab), .key(.tab))
        send(&state, .key(.character("r")))
        #expect(state.myPurchases.renewal == nil)
        #expect(state.message?.text == "Premium Yearly is not in a 12-month commitment")
    }
}
