import StoreKitValues

extension MyPurchasesFeature {
    /// What happens to My Purchases.
    public enum Action: Hashable, Sendable {
        /// The menu's item (or `p`): open on the history.
        case open
        /// A key in the window.
        case key(Key)
        /// The rows changed (a load): keep the selection on one.
        case rowsChanged
        /// Consuming ended with the product's new balance.
        case consumed(productID: String, Result<Int, StoreError>)
    }
}
