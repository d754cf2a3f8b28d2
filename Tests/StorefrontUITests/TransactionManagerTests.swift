import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// The Transaction Manager (issue 17): restored purchases are listed, a refund and an expiry
/// ask first, and Home, End, PgUp and PgDn move the selection.
@Suite struct TransactionManagerTests {
    @Test func afterARestoreIntoAFreshAppTheRestoredPurchasesAreListed() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("t")))
        var restored = Fixtures.transaction("30", monthly, .autoRenewable, state: .restored)
        restored = Transaction(
            transactionID: "30", originalTransactionID: "3", productID: monthly, productType: .autoRenewable,
            payment: restored.payment, state: .restored, purchaseDate: Fixtures.start,
            expiresDate: Fixtures.start.addingTimeInterval(86_400))
        let restoredPro = Transaction(
            transactionID: "31", originalTransactionID: "4", productID: pro, productType: .nonConsumable,
            payment: Payment(productID: pro), state: .restored, purchaseDate: Fixtures.start)
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: [restored, restoredPro]))))
        #expect(Set(TransactionManagerFeature.rows(state.purchases).map(\.transactionID)) == ["30", "31"])
        let screen = render(state).lines.joined(separator: "\n")
        #expect(!screen.contains("No transactions"))
        #expect(screen.contains("Pro Unlock"))
    }

    private func managing(_ count: Int) -> State {
        var state = Fixtures.loaded()
        send(&state, .key(.character("t")))
        let bought = (0..<count).map { i in
            Transaction(
                transactionID: "\(100 + i)", productID: pro, productType: .nonConsumable,
                payment: Payment(productID: pro),
                state: .purchased, purchaseDate: Fixtures.start.addingTimeInterval(Double(i)))
        }
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: bought))))
        return state
    }

    @Test func aRefundAsksFirst() {
        var state = managing(1)
        #expect(send(&state, .key(.character("f"))) == [], "no refund before the answer")
        #expect(render(state).lines.contains { $0.contains("Refund transaction 100") })
        #expect(send(&state, .key(.character("n"))) == [])
        #expect(state.modal == .transactions && state.transactionManager.selected == 0)
        send(&state, .key(.character("f")))
        #expect(send(&state, .key(.character("y"))) == [.transactionCommand(.refund, transactionID: "100")])
        #expect(state.modal == .transactions && state.transactionManager.selected == 0)
    }

    @Test func homeEndPageUpAndPageDownMoveTheSelection() {
        var state = managing(40)
        send(&state, .key(.end))
        #expect(state.modal == .transactions && state.transactionManager.selected == 39)
        send(&state, .key(.home))
        #expect(state.modal == .transactions && state.transactionManager.selected == 0)
        send(&state, .key(.pageDown))
        #expect(state.modal == .transactions)
        #expect(state.transactionManager.selected > 1)
        send(&state, .key(.pageUp))
        #expect(state.modal == .transactions && state.transactionManager.selected == 0)
    }

    @Test func aConsumableIsPurchasedNotOwned() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("t")))
        send(
            &state,
            .purchasesLoaded(.success(PurchasesSnapshot(transactions: [Fixtures.transaction("5", coins, .consumable)])))
        )
        let row = render(state).lines.first { $0.contains("100 Coins") && $0.contains("2026-01-01") }
        #expect(row?.contains("Purchased") == true, "\(row ?? "")")
        #expect(row?.contains("Owned") == false)
        // And in My Purchases → History.
        send(&state, .key(.escape), .key(.character("p")))
        let history = render(state).lines.first { $0.contains("100 Coins") && $0.contains("2026-01-01") }
        #expect(history?.contains("Purchased") == true, "\(history ?? "")")
    }
}
