import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Refunded rows in the Transaction Manager (issue 15's REFUND_REVERSED, caused from the TUI):
/// a refunded purchase or subscription stays listed, marked refunded with its refund's date;
/// u reverses the refund, and the keys that act on a purchase that grants say why they do not.
@Suite struct TransactionManagerRefundTests {
    static let monthly = TransactionManagerSubscriptionTests.monthly
    static let pro = TransactionManagerSubscriptionTests.pro
    static let refundDate = Fixtures.start.addingTimeInterval(2 * 3_600 + 60)

    /// The manager on a refunded non-consumable (10, its restored copy 11) and a subscription
    /// whose latest period (22) was refunded, which ended it; `japanese` for the other language.
    static func managing(japanese: Bool = false) -> State {
        var state = Fixtures.loaded(japanese: japanese)
        send(&state, .key(.character("t")))
        var bought = Transaction(
            transactionID: "10", productID: pro, productType: .nonConsumable, payment: Payment(productID: pro),
            state: .purchased, purchaseDate: Fixtures.start.addingTimeInterval(-3_600))
        bought.revocationDate = refundDate
        var restored = Transaction(
            transactionID: "11", originalTransactionID: "10", productID: pro, productType: .nonConsumable,
            payment: Payment(productID: pro), state: .restored, purchaseDate: Fixtures.start)
        restored.revocationDate = refundDate
        var latest = TransactionManagerSubscriptionTests.period("22", startingAfter: 2)
        latest.revocationDate = refundDate
        let history = [latest, TransactionManagerSubscriptionTests.period("21", startingAfter: 1), restored, bought]
        let ended = TransactionManagerSubscriptionTests.subscription(phase: .expired(at: refundDate))
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: history, subscriptions: [ended]))))
        return state
    }

    @Test func refundedRowsStayListedMarkedRefundedWithTheirRefundsDate() {
        let state = Self.managing()
        #expect(
            TransactionManagerFeature.rows(state.purchases).map(\.transactionID) == ["22", "11"],
            "one row per purchase, refunded ones included")
        let lines = render(state).lines
        for id in ["22", "11"] {
            #expect(
                lines.contains { $0.contains(id) && $0.contains("Refunded") && $0.contains("2026-01-01 02:01") },
                "\(id): \(lines)")
        }
        let footer = lines.first { $0.contains("Esc") } ?? ""
        #expect(
            footer.contains("u Reverse refund") && !footer.contains("f Refund") && !footer.contains("n Renew"),
            "\(footer)")
        let japanese = render(Self.managing(japanese: true)).lines
        #expect(japanese.contains { $0.contains("22") && $0.contains("返金済み") }, "\(japanese)")
        #expect(japanese.contains { $0.contains("u 返金を取り消す") }, "\(japanese)")
    }

    @Test func uReversesTheRefundOfTheSelectedRowByTheStoresID() {
        var state = Self.managing()
        #expect(send(&state, .key(.character("u"))) == [.transactionCommand(.reverseRefund, transactionID: "22")])
        send(&state, .key(.down))
        // A restored copy's refund is reversed on what the store sold: its original.
        #expect(send(&state, .key(.character("u"))) == [.transactionCommand(.reverseRefund, transactionID: "10")])
        #expect(
            send(&state, .transactionManager(.commandFinished(.reverseRefund, .success("10")))) == [
                .loadPurchases
            ])
        #expect(state.message?.text == "Refund of transaction 10 reversed: it grants again")
        #expect(state.message?.kind == .success)
        send(&state, .transactionManager(.commandFinished(.reverseRefund, .failure(.systemError("no")))))
        #expect(state.message?.kind == .error)
    }

    @Test func theOtherKeysRefuseOnARefundedRowAndUOnAGrantingOne() {
        var state = Self.managing()
        for key in "adiRADfnxcbp+-" {
            #expect(send(&state, .key(.character(key))) == [], "\(key)")
            #expect(state.message?.text == "Premium Monthly was refunded: u reverses the refund", "\(key)")
            #expect(state.message?.kind == .error)
            #expect(state.modal == .transactions && state.transactionManager.selected == 0, "\(key) asks nothing")
        }
        // Enter still shows the transaction; the arrows still move.
        #expect(send(&state, .key(.enter)) == [.loadTransaction(transactionID: "22")])
        var granting = TransactionManagerSubscriptionTests.managing(
            TransactionManagerSubscriptionTests.subscription(
                phase: .active(until: Fixtures.start.addingTimeInterval(10_800))))
        #expect(send(&granting, .key(.character("u"))) == [])
        #expect(granting.message?.text == "Premium Monthly is not refunded")
        #expect(granting.message?.kind == .error)
    }
}
