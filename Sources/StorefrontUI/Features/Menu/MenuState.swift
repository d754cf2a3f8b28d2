import StoreKitValues

extension MenuFeature {
    /// The menu's selection, and a restore under way.
    public struct State: ScreenState {
        /// The selected item.
        public var selected = 0
        /// Whether a restore is under way.
        public var isRestoring = false

        /// The first item selected, nothing under way.
        public init() {}
    }
}
