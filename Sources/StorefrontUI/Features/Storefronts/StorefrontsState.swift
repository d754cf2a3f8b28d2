extension StorefrontsFeature {
    /// The window's selections, and a switch under way.
    public struct State: ScreenState {
        /// The selected storefront, in `StoreContext.storefronts`.
        public var storefront = 0
        /// The selected locale, in `StoreContext.locales`.
        public var locale = 0
        /// The column with focus: 0 storefronts, 1 locales.
        public var column = 0
        /// The storefront a switch is under way to (its products not loaded yet).
        public var switchingTo: String?

        /// Nothing chosen yet.
        public init() {}
    }
}
