import StoreKitValues

extension CatalogFeature {
    /// What happens to the product list.
    public enum Action: Hashable, Sendable {
        /// A key on the list or, while one is typed, in the filter field: moving, filtering,
        /// grouping, sorting.
        case key(Key)
        /// The products, localized.
        case productsLoaded(Result<[Product], StoreError>)
        /// Another storefront's products arrived with its context (`Action.storefrontSwitched`).
        case productsSwitched([Product])
        /// The language or the estimated prices changed: measure and list the products again.
        case contextChanged
        /// The screen's layout changed (a resize, the log pane, a download row): keep the
        /// selection on screen.
        case layoutChanged
    }
}
