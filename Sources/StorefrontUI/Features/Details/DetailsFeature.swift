import StoreKitValues

/// Everything about one product in a window that scrolls, with its price in every storefront
/// (loaded once per product: opening it again on the same product shows what was loaded).
public enum DetailsFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        switch action {
        case .open(let productID):
            state.productID = productID
            state.scroll = 0
            var reaction = Reaction.present(.details)
            if state.priceComparison?.productID != productID {
                reaction.run(.loadPriceComparison(productID: productID))
            }
            return reaction
        case .key(let key):
            if key == .escape || key == .character("q") || key == .character("d") || key == .enter {
                return .present(nil)
            }
            let lines = DetailsView.lines(state, root).count
            if let next = PageView.scrolled(
                state.scroll, by: key, limit: PageView.scrollLimit(lines: lines, in: root), root)
            {
                state.scroll = next
            }
        case .priceComparisonLoaded(let productID, let prices):
            state.priceComparison = PriceComparison(productID: productID, prices: prices)
        case .storefrontChanged:
            state.priceComparison = nil
        }
        return .none
    }
}
