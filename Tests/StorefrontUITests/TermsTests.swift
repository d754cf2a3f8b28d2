import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Terms as people read them (issue 17): a price per period, the trial and what follows it,
/// how often it renews, a change of plan, and an estimated price marked as one.
@Suite struct TermsTests {
    private func selecting(_ id: String, width: Int = 80, height: Int = 24) -> State {
        var state = Fixtures.loaded(width: width, height: height)
        while state.catalog.selectedProduct?.id != id { send(&state, .key(.down)) }
        return state
    }

    @Test func aSubscriptionsPriceIsPerPeriod() {
        let lines = render(selecting(monthly)).lines
        #expect(lines.contains { $0.contains("Premium Monthly") && $0.contains("$4.99/month") })
        #expect(lines.contains { $0.contains("Premium Yearly") && $0.contains("$39.99/year") })
    }

    @Test func theTrialsTermsAndTheRenewalReadAsSentences() {
        let text = render(selecting(monthly)).lines.joined(separator: "\n")
        #expect(text.contains("1 week free, then $4.99/month"))
        #expect(text.contains("Renews monthly"))
        #expect(!text.contains("every 1 month"))
        #expect(
            SubscriptionTerms.renewal(SubscriptionPeriod(value: 3, unit: .month), Strings(.english))
                == "Renews every 3 months")
        #expect(
            SubscriptionTerms.perPeriod("$9.99", SubscriptionPeriod(value: 3, unit: .month), Strings(.english))
                == "$9.99 every 3 months")
    }

    @Test func buyingAnotherPlanOfTheGroupSaysItIsAChangeOfPlan() {
        var state = selecting(monthly)
        let subscription = ManagedSubscription(
            originalTransactionID: "20", latestTransactionID: "20", productID: yearly,
            phase: .active(until: Fixtures.start.addingTimeInterval(86_400)), willAutoRenew: true,
            hasBillingIssue: false)
        send(
            &state,
            .purchasesLoaded(
                .success(
                    PurchasesSnapshot(
                        transactions: [Fixtures.transaction("20", yearly, .autoRenewable)],
                        subscriptions: [subscription]))))
        send(&state, .key(.enter))
        let sheet = render(state).lines.joined(separator: "\n")
        // Monthly is level 2, yearly level 1: a downgrade, at the next renewal.
        #expect(sheet.contains("Downgrade from Premium Yearly: starts at the next renewal"))
    }

    @Test func anEstimatedPriceIsMarked() {
        var state = Fixtures.loaded(width: 80, height: 24)
        var context = Fixtures.context()
        context.estimatedPrices = ["com.storefront.demo.coins.100"]
        send(&state, .contextLoaded(.success(context)))
        let lines = render(state).lines
        #expect(lines.contains { $0.contains("100 Coins") && $0.contains("≈$0.99") })
        #expect(lines.contains { $0.contains("500 Coins") && $0.contains("$4.99") && !$0.contains("≈") })
        #expect(lines.joined().contains("no price set for USA"))
    }
}
