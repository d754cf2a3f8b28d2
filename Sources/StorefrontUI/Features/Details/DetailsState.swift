import StoreKitValues

extension DetailsFeature {
    /// The window's product and scroll position, and the prices loaded for it.
    public struct State: ScreenState {
        /// The product shown.
        public var productID = ""
        /// How far down the window is scrolled.
        public var scroll = 0
        /// The last product's price in every storefront (nil: not loaded, or another
        /// storefront's since).
        public var priceComparison: PriceComparison?

        /// Nothing shown yet.
        public init() {}
    }
}
