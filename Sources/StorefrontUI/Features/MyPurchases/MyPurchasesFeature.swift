import StoreKitValues

/// My Purchases: the account's history (each transaction with its order ID), its consumable
/// balances (a consumable is used up here), and its subscriptions, in three tabs.
public enum MyPurchasesFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        let purchases = root.purchases
        switch action {
        case .open:
            state = State()
            return .present(.purchases, loading: .loadPurchases)
        case .rowsChanged:
            state.selected = min(state.selected, max(0, tabCounts(purchases)[state.tab] - 1))
        case .consumed(let productID, let result):
            let strings = root.strings
            return TransactionManagerFeature.reportAndReload(
                result.map { (strings("Used 1 × {}: {} left", root.name(of: productID), String($0)), .success) })
        case .key(let key):
            if let choice = state.renewal { return renewalKey(key, choice, &state, root) }
            switch key {
            case .escape, .character("q"), .character("p"):
                return .present(nil)
            case .tab, .right, .character("l"):
                state = State(tab: (state.tab + 1) % 3)
            case .backTab, .left, .character("h"):
                state = State(tab: (state.tab + 2) % 3)
            case .character("c") where state.tab == 2:
                let rows = subscriptionRows(purchases)
                guard state.selected < rows.count else { return .none }
                return .send(.cancelSheet(.open(productID: rows[state.selected])))
            case .character("c"):
                let rows = balanceRows(purchases)
                guard state.tab == 1, state.selected < rows.count else { return .none }
                return .run(.consume(productID: rows[state.selected].productID, quantity: 1))
            case .character("r"):
                let rows = subscriptionRows(purchases)
                guard state.tab == 2, state.selected < rows.count else { return .none }
                switch RenewalChoice.make(for: rows[state.selected], in: root) {
                case .success(let choice):
                    state.renewal = choice
                case .failure(let unavailable):
                    let name = root.name(of: unavailable.productID)
                    return Reaction(requests: [.show(root.strings("{} is not in a 12-month commitment", name), .error)])
                }
            case .enter:
                guard state.tab == 0, state.selected < purchases.transactions.count else { return .none }
                let id = purchases.transactions[state.selected].transactionID
                return .send(.receipt(.openTransaction(id, over: .purchases)))
            default:
                let count = tabCounts(purchases)[state.tab]
                if let next = KeyNavigation.moved(state.selected, by: key, count: count, page: max(1, root.height - 8))
                {
                    state.selected = next
                }
            }
        }
        return .none
    }

    /// A key on the renewal choice: move, Enter chooses (the store is told when it changed),
    /// Esc closes.
    private static func renewalKey(
        _ key: Key, _ choice: RenewalChoice, _ state: inout State, _ root: StorefrontUI.State
    ) -> Reaction {
        switch key {
        case .escape, .character("q"):
            state.renewal = nil
        case .enter:
            state.renewal = nil
            guard choice.selected != choice.current, choice.selected < choice.options.count else { return .none }
            let option = choice.options[choice.selected]
            return .run(
                .subscriptionCommand(
                    .renewInto(productID: option.productID, plan: option.plan), transactionID: choice.transactionID))
        default:
            if let next = KeyNavigation.moved(
                choice.selected, by: key, count: choice.options.count, page: max(1, root.height - 8))
            {
                state.renewal?.selected = next
            }
        }
        return .none
    }

    /// The consumables with a balance, for the Balances tab.
    static func balanceRows(_ purchases: PurchasesSnapshot) -> [(productID: String, count: Int)] {
        purchases.balances.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The subscriptions the account has or had (active, failing billing, or ended), for the
    /// Subscriptions tab, by product ID.
    static func subscriptionRows(_ purchases: PurchasesSnapshot) -> [String] {
        Set(purchases.activeUntil.keys).union(purchases.subscriptions.map(\.productID)).sorted()
    }

    /// The number of rows of each tab.
    static func tabCounts(_ purchases: PurchasesSnapshot) -> [Int] {
        [purchases.transactions.count, balanceRows(purchases).count, subscriptionRows(purchases).count]
    }
}

extension MyPurchasesFeature.State {
    /// A tab, its first row selected.
    init(tab: Int) {
        self.tab = tab
        selected = 0
    }
}
