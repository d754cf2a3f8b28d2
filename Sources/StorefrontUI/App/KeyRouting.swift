import StoreKitValues

/// Where a key goes: Ctrl-C leaves; a window open takes every key; else the filter field while
/// one is typed; else the product list, whose keys open the other screens.
extension State {
    /// Handles a key in the current mode: a window, the filter field, or the product list.
    mutating func handle(_ key: Key) -> [Effect] {
        // Ctrl-C (when the terminal sends it as a key) leaves at once, as SIGINT does.
        if key == .control("c") { return quit(status: 128 + 2) }
        guard fitsMinimumSize else {
            // q quits, as on the list; Esc goes back, and there is nothing to go back from.
            if key == .character("q") { return askToQuit() }
            return []
        }
        if let modal { return update(window(modal, key)) }
        if catalog.isFiltering { return update(.catalog(.key(key))) }
        // The app transaction is no screen's: the status line and the log show it.
        if key == .character("i") { return [.loadAppTransaction] }
        return update(listKey(key))
    }

    /// The action of a key in the window `modal`: the window's screen's.
    private func window(_ modal: Modal, _ key: Key) -> Action {
        switch modal {
        case .confirm, .purchase: .buySheet(.key(key))
        case .menu: .menu(.key(key))
        case .help: .help(.key(key))
        case .storefronts: .storefronts(.key(key))
        case .accounts: .accounts(.key(key))
        case .settings: .settings(.key(key))
        case .transactions: .transactionManager(.key(key))
        case .purchases: .myPurchases(.key(key))
        case .cancelSheet: .cancelSheet(.key(key))
        case .details: .details(.key(key))
        case .document: .receipt(.key(key))
        case .log: .eventLog(.key(key))
        case .notifications: .notifications(.key(key))
        case .question: .questions(.key(key))
        }
    }

    /// The action of a key on the product list: the screen it opens or acts on, else the
    /// list's own (moving, filtering, grouping, sorting).
    private func listKey(_ key: Key) -> Action {
        switch key {
        case .enter: return .buySheet(.open)
        case .character("d"):
            guard let product = catalog.selectedProduct else { return .catalog(.key(key)) }
            return .details(.open(productID: product.id))
        case .character(" "): return .downloads(.togglePause)
        case .character("x"): return .downloads(.askToCancel)
        case .character("c"): return .buySheet(.redeemOfferCode)
        case .character("?"), .function(1): return .help(.open)
        case .character("m"), .function(2): return .menu(.open)
        case .character("l"): return .eventLog(.togglePane)
        case .character(let c):
            if let item = MenuItem.allCases.first(where: { $0.key == c }) { return .menu(.run(item)) }
            return .catalog(.key(key))
        default: return .catalog(.key(key))
        }
    }
}
