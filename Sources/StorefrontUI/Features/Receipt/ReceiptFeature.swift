import StoreKitValues

/// The receipt and transaction viewer: the app receipt (the menu's View Receipt) or one
/// transaction with its signed payload (Enter in the Transaction Manager or My Purchases),
/// decoded by the executable, in a window that scrolls over the one it was opened from.
public enum ReceiptFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        switch action {
        case .openReceipt:
            state = State()
            return .present(.document(over: nil), loading: .loadReceipt)
        case .openTransaction(let id, let over):
            state = State()
            return .present(.document(over: over), loading: .loadTransaction(transactionID: id))
        case .key(let key):
            if key == .escape || key == .character("q") || key == .enter { return .present(beneath(root)) }
            let limit = PageView.scrollLimit(lines: DocumentView.lines(state, root).count, in: root)
            if let next = PageView.scrolled(state.scroll, by: key, limit: limit, root) { state.scroll = next }
        case .loaded(.success(let document)):
            state.document = document
        case .loaded(.failure(let error)):
            var reaction = Reaction.none
            if case .document(let over) = root.modal { reaction.ask(.present(over)) }
            reaction.ask(.fail(error))
            return reaction
        }
        return .none
    }

    /// The window the viewer was opened over.
    private static func beneath(_ root: StorefrontUI.State) -> Modal? {
        if case .document(let over) = root.modal { over } else { nil }
    }
}
