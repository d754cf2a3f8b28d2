import StoreKitValues

extension DetailsFeature {
    /// What happens to the details window.
    public enum Action: Hashable, Sendable {
        /// `d` on the list: open on a product.
        case open(productID: String)
        /// A key in the window.
        case key(Key)
        /// A product's price in every storefront.
        case priceComparisonLoaded(productID: String, [StorefrontPrice])
        /// The storefront changed: the prices loaded are another storefront's.
        case storefrontChanged
    }
}
