import StoreKitValues

/// The cancel sheet (My Purchases → Subscriptions, `c`): the customer begins to cancel a
/// subscription, as in the App Store's subscription page. The App Store asks the developer's
/// Get Retention Message endpoint what to show; the sheet shows that message (its images in
/// words), and the customer takes the offer, switches product, cancels anyway, or keeps the
/// subscription. Each choice acts through the engine.
public enum CancelSheetFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        let s = root.strings
        switch action {
        case .open(let productID):
            state = State()
            state.productID = productID
            return .present(.cancelSheet, loading: .askRetention(productID: productID))
        case .asked(.success(let sheet)):
            // An answer that comes after the sheet was closed is dropped: the customer left.
            guard root.modal == .cancelSheet, state.sheet == nil else { return .none }
            state.sheet = sheet
            state.selected = 0
            return Reaction(requests: [.record(logLine(sheet, root), isError: false)])
        case .asked(.failure(let error)):
            // Nothing to cancel, or the store failed: the sheet says why; after it was closed,
            // the status line does.
            guard root.modal == .cancelSheet, state.sheet == nil else { return Reaction(requests: [.fail(error)]) }
            let text = root.strings("Error: {}", root.describe(error))
            state.failure = text
            return Reaction(requests: [.record(text, isError: true)])
        case .chose(let choice, let outcome):
            state.working = nil
            switch outcome {
            case .success:
                let name = root.name(of: state.productID)
                let text =
                    switch choice {
                    case .takeOffer:
                        s("Took the offer {} on {}", state.sheet?.offer?.offer.offerID ?? "", name)
                    case .switchProduct:
                        s("Switched to {}", root.name(of: state.sheet?.alternateProductID ?? ""))
                    case .cancelAnyway, .keep: s("Auto-renew is off for {}", name)
                    }
                state.sheet = nil
                return Reaction.present(.purchases).then(
                    TransactionManagerFeature.reportAndReload(.success((text, .success))))
            case .failure(let error):
                return Reaction(requests: [.fail(error)])
            }
        case .key(let key):
            guard state.working == nil else { return .none }
            switch key {
            case .escape, .character("q"):
                return .present(.purchases)
            case .enter where state.failure != nil:
                return .present(.purchases)
            case .enter:
                guard let sheet = state.sheet, state.selected < sheet.choices.count else { return .none }
                let choice = sheet.choices[state.selected]
                guard choice != .keep else { return .present(.purchases) }
                state.working = choice
                return .run(.chooseRetention(choice, sheet))
            default:
                guard let sheet = state.sheet,
                    let next = KeyNavigation.moved(state.selected, by: key, count: sheet.choices.count, page: 1)
                else { return .none }
                state.selected = next
            }
        }
        return .none
    }

    /// The event log's line for what the App Store showed.
    static func logLine(_ sheet: RetentionSheet, _ root: StorefrontUI.State) -> String {
        let s = root.strings
        let name = root.name(of: sheet.productID)
        let shown = sheet.message?.header ?? s("No retention message")
        guard let reason = sheet.fallbackReason else { return s("Retention message for {}: {}", name, shown) }
        return s("Retention message for {}: {}", name, shown) + " (\(reason))"
    }
}
