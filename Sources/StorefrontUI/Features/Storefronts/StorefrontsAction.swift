extension StorefrontsFeature {
    /// What happens to Storefront & Language.
    public enum Action: Hashable, Sendable {
        /// The menu's item (or `s`): open on the current storefront and locale.
        case open
        /// A key in the window.
        case key(Key)
        /// The switch under way ended (`Action.storefrontSwitched`).
        case switched
    }
}
