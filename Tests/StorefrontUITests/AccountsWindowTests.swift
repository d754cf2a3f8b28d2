import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// The Accounts window (menu, `A`): the accounts of the data directory, the signed-in one first
/// selected; Enter on another signs in, and the storefront leaves to open again on it.
@Suite struct AccountsWindowTests {
    static let rows = [
        AccountRow(id: "local-tester", name: "Local Tester", role: .organizer, isSignedIn: true),
        AccountRow(id: "bob", name: "Bob", role: .member, isSignedIn: false),
    ]

    @Test func enterOnAnotherAccountSignsInAndLeavesToOpenOnIt() {
        var state = Fixtures.loaded(width: 100, height: 30)
        #expect(send(&state, .key(.character("A"))) == [.loadAccounts])
        #expect(state.modal == .accounts)
        send(&state, .accounts(.loaded(.success(Self.rows))))
        #expect(state.accounts.selected == 0, "the signed-in account is selected")
        let lines = render(state).lines
        #expect(lines.contains { $0.contains("╭ Accounts") }, "\(lines)")
        #expect(lines.contains { $0.contains("●  Local Tester  local-tester  Organizer") }, "\(lines)")
        #expect(lines.contains { $0.contains("Bob           bob           Member") }, "\(lines)")
        #expect(send(&state, .key(.down), .key(.enter)) == [.signIn(accountID: "bob")])
        #expect(state.message?.text == "Signing in to Bob…")
        #expect(send(&state, .accounts(.signedIn(.success("bob")))) == [.quit])
        #expect(state.isQuitting && state.exitStatus == 0 && state.accounts.signingInTo == "bob")
    }

    @Test func enterOnTheSignedInAccountClosesAndAFailureIsReported() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("m")))
        let item = MenuItem.allCases.firstIndex(of: .accounts) ?? 0
        for _ in 0..<item { send(&state, .key(.down)) }
        #expect(send(&state, .key(.enter)) == [.loadAccounts])
        send(&state, .accounts(.loaded(.success(Self.rows))))
        #expect(send(&state, .key(.enter)) == [])
        #expect(state.modal == nil)
        send(&state, .key(.character("A")), .accounts(.loaded(.success(Self.rows))), .key(.down), .key(.enter))
        send(&state, .accounts(.signedIn(.failure(.systemError("disk full")))))
        #expect(state.message?.kind == .error && !state.isQuitting && state.accounts.signingInTo == nil)
    }

    @Test func theTransactionManagersFOpensTheFamilyWhereRRemovesAMemberAfterAsking() {
        var state = Fixtures.loaded(width: 100, height: 30)
        send(&state, .key(.character("t")))
        #expect(send(&state, .key(.character("F"))) == [.loadAccounts])
        #expect(state.modal == .accounts)
        let rows = Self.rows + [AccountRow(id: "carol", name: "Carol", role: nil, isSignedIn: false)]
        send(&state, .accounts(.loaded(.success(rows))))
        #expect(render(state).lines.contains { $0.contains("Enter · r · Esc") })

        // Outside the family there is nothing to remove.
        #expect(send(&state, .key(.end), .key(.character("r"))) == [])
        #expect(state.message?.kind == .error && state.message?.text == "Carol is not in the family")

        #expect(send(&state, .key(.up), .key(.character("r"))) == [])
        #expect(state.modal == .question(over: .accounts))
        #expect(render(state).lines.contains { $0.contains("Remove Bob from the family?") })
        #expect(send(&state, .key(.character("y"))) == [.removeFromFamily(accountID: "bob")])
        #expect(state.modal == .accounts)
        #expect(send(&state, .accounts(.removed(.success("bob")))) == [.loadAccounts])
        #expect(state.message?.text == "Bob left the family: what was shared with or by them is revoked")
        send(&state, .accounts(.removed(.failure(.systemError("disk full")))))
        #expect(state.message?.kind == .error && state.message?.text.contains("disk full") == true)
    }
}
