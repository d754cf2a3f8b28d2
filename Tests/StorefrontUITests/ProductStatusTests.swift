import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// What a product's row says (issue 17): refunded, auto-renew off, a free trial.
@Suite struct ProductStatusTests {
    private func row(_ state: State, _ name: String) -> String {
        render(state).lines.first { $0.contains(name) && !$0.contains("╭") } ?? ""
    }

    @Test func aRefundedPurchaseIsMarked() {
        var state = Fixtures.loaded(width: 120, height: 40)
        var refunded = Fixtures.transaction("12", pro, .nonConsumable)
        refunded.revocationDate = Fixtures.start
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: [refunded]))))
        #expect(row(state, "Pro Unlock").contains("Refunded"))
    }

    @Test func autoRenewOffIsMarked() {
        var state = Fixtures.loaded(width: 120, height: 40)
        let until = Fixtures.start.addingTimeInterval(20 * 86_400)
        let subscription = ManagedSubscription(
            originalTransactionID: "20", latestTransactionID: "20", productID: monthly, phase: .active(until: until),
            willAutoRenew: false, hasBillingIssue: false)
        send(
            &state,
            .purchasesLoaded(
                .success(
                    PurchasesSnapshot(
                        transactions: [Fixtures.transaction("20", monthly, .autoRenewable)],
                        activeUntil: [monthly: until],
                        subscriptions: [subscription]))))
        #expect(row(state, "Premium Monthly").contains("auto-renew off"), "\(row(state, "Premium Monthly"))")
    }

    @Test func aFreeTrialSaysSo() {
        var state = Fixtures.loaded(width: 120, height: 40)
        let until = Fixtures.start.addingTimeInterval(7 * 86_400)
        var trial = Fixtures.transaction("20", monthly, .autoRenewable)
        trial.offerType = .introductory
        let subscription = ManagedSubscription(
            originalTransactionID: "20", latestTransactionID: "20", productID: monthly, phase: .active(until: until),
            willAutoRenew: true, hasBillingIssue: false)
        send(
            &state,
            .purchasesLoaded(
                .success(
                    PurchasesSnapshot(
                        transactions: [trial], activeUntil: [monthly: until], subscriptions: [subscription]))))
        #expect(
            row(state, "Premium Monthly").contains("Free trial until 2026-01-08"), "\(row(state, "Premium Monthly"))")
    }
}
