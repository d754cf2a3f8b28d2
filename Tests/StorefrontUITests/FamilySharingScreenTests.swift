import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Family Sharing on the storefront's screens: My Purchases says who shares a `FAMILY_SHARED`
/// transaction and when sharing ended; the Transaction Manager's S stops sharing a purchase the
/// account made, and refuses one shared with it.
@Suite struct FamilySharingScreenTests {
    static func shared(_ id: String, revoked: Bool = false) -> Transaction {
        var t = Fixtures.transaction(id, pro, .nonConsumable)
        t.ownershipType = .familyShared
        if revoked { t.revocationDate = Fixtures.start }
        return t
    }

    @Test func myPurchasesSaysWhoSharesAndWhenSharingEnded() {
        var state = Fixtures.loaded(width: 110, height: 30)
        send(&state, .key(.character("p")))
        send(
            &state,
            .purchasesLoaded(.success(PurchasesSnapshot(transactions: [Self.shared("7")], sharedBy: ["7": "Alice"]))))
        #expect(render(state).lines.contains { $0.contains("7") && $0.contains("Shared by Alice") })
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: [Self.shared("7", revoked: true)]))))
        #expect(render(state).lines.contains { $0.contains("7") && $0.contains("Sharing ended") })
    }

    @Test func theTransactionManagerStopsSharingOnlyWhatTheAccountBought() {
        var state = Fixtures.loaded(width: 110, height: 30)
        send(&state, .key(.character("t")))
        let own = Fixtures.transaction("5", pro, .nonConsumable)
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: [own]))))
        #expect(send(&state, .key(.character("S"))) == [.transactionCommand(.stopSharing, transactionID: "5")])
        send(&state, .transactionManager(.commandFinished(.stopSharing, .success("5"))))
        #expect(state.message?.text == "Stopped sharing transaction 5 with the family")
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: [Self.shared("8")]))))
        #expect(send(&state, .key(.character("S"))) == [])
        #expect(state.message?.kind == .error && state.message?.text.contains("only its purchaser") == true)
    }
}
