/// Storefront & Language: the storefronts beside the catalog's locales; Enter switches to the
/// chosen pair, and until the new storefront's products arrive the list is the old one's,
/// dimmed, and sells nothing.
public enum StorefrontsFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        let storefronts = root.context?.storefronts ?? []
        let locales = root.context?.locales ?? []
        switch action {
        case .open:
            state.storefront = storefronts.firstIndex { $0.code == root.context?.storefront } ?? 0
            state.locale = locales.firstIndex { $0 == root.context?.locale } ?? 0
            state.column = 0
            return .present(.storefronts)
        case .switched:
            state.switchingTo = nil
            return .none
        case .key(let key):
            switch key {
            case .escape, .character("q"):
                return .present(nil)
            case .tab, .backTab, .left, .right, .character("h"), .character("l"):
                state.column = state.column == 0 ? 1 : 0
            case .up, .down, .character("k"), .character("j"), .pageUp, .pageDown, .home, .end:
                let count = state.column == 0 ? storefronts.count : locales.count
                let current = state.column == 0 ? state.storefront : state.locale
                guard count > 0, let next = KeyNavigation.moved(current, by: key, count: count, page: 10) else {
                    break
                }
                if state.column == 0 {
                    // A new storefront brings its own language when the catalog has it.
                    state.storefront = next
                    state.locale = locales.firstIndex(of: storefronts[next].locale) ?? state.locale
                } else {
                    state.locale = next
                }
            case .character(let c) where c.isUppercase && c.isASCII:
                // Type the first letter of a code to jump there (again for the next one).
                let from = state.storefront
                guard
                    let next = (1...max(1, storefronts.count)).lazy
                        .map({ (from + $0) % max(1, storefronts.count) })
                        .first(where: { storefronts.indices.contains($0) && storefronts[$0].code.first == c })
                else { return .none }
                state.storefront = next
                state.locale = locales.firstIndex(of: storefronts[next].locale) ?? state.locale
                state.column = 0
            case .enter:
                guard state.storefront < storefronts.count else { return .present(nil) }
                let code = storefronts[state.storefront].code
                let chosenLocale =
                    state.locale < locales.count ? locales[state.locale] : storefronts[state.storefront].locale
                // Until its products arrive, the list is the old storefront's: nothing is bought from it.
                state.switchingTo = code
                return Reaction(
                    requests: [
                        .present(nil), .show(root.strings("Switching to {}…", code), .info),
                        .run(.setStorefront(code: code, locale: chosenLocale)),
                    ])
            default: break
            }
            return .none
        }
    }
}
