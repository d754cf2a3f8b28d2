import StoreKitValues

/// Accounts: who the app is signed in to, and the other accounts of the data directory (its
/// family); Enter signs the data directory in to the selected one, and the storefront opens
/// again on it, as signing in to another Apple Account shows another account's purchases; `r`
/// removes the selected one from the family (asks first), ending what it shared or was shared.
public enum AccountsFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        let s = root.strings
        switch action {
        case .open:
            state.selected = 0
            return Reaction(requests: [.present(.accounts), .run(.loadAccounts)])
        case .loaded(.success(let rows)):
            state.rows = rows
            state.selected = min(rows.firstIndex(where: \.isSignedIn) ?? 0, max(0, rows.count - 1))
            return .none
        case .loaded(.failure(let error)):
            return Reaction(requests: [.present(nil), .fail(error)])
        case .key(let key):
            switch key {
            case .escape, .character("q"):
                return .present(nil)
            case .up, .down, .character("k"), .character("j"), .pageUp, .pageDown, .home, .end:
                if let next = KeyNavigation.moved(state.selected, by: key, count: state.rows.count, page: 10) {
                    state.selected = next
                }
            case .enter:
                guard state.rows.indices.contains(state.selected), state.signingInTo == nil else { return .none }
                let row = state.rows[state.selected]
                guard !row.isSignedIn else { return .present(nil) }
                return Reaction(requests: [
                    .show(s("Signing in to {}…", row.name), .info), .run(.signIn(accountID: row.id)),
                ])
            case .character("r"):
                guard state.rows.indices.contains(state.selected) else { return .none }
                let row = state.rows[state.selected]
                guard row.role != nil else {
                    return Reaction(requests: [.show(s("{} is not in the family", row.name), .error)])
                }
                return .send(.questions(.ask(.removeFromFamily(accountID: row.id, name: row.name), over: .accounts)))
            default: break
            }
            return .none
        case .signedIn(.success(let id)):
            // The storefront opens again on the account: its store, vault and purchases.
            state.signingInTo = id
            return Reaction(requests: [.quit(status: 0)])
        case .signedIn(.failure(let error)):
            return Reaction(requests: [.report(s("Sign-in failed: {}", root.describe(error)), .error)])
        case .removed(.success(let id)):
            let name = state.rows.first { $0.id == id }?.name ?? id
            return Reaction(requests: [
                .report(s("{} left the family: what was shared with or by them is revoked", name), .success),
                .run(.loadAccounts),
            ])
        case .removed(.failure(let error)):
            return Reaction(requests: [.report(s("Removing from the family failed: {}", root.describe(error)), .error)])
        }
    }
}
