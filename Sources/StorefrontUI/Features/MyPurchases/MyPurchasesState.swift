import StoreKitValues

extension MyPurchasesFeature {
    /// The window's tab and selection.
    public struct State: ScreenState {
        /// The tab shown: 0 history, 1 balances, 2 subscriptions.
        public var tab = 0
        /// The selected row of the tab.
        public var selected = 0
        /// The renewal choice open over the Subscriptions tab (`r`), if any.
        public var renewal: RenewalChoice?

        /// The history tab, its first row selected.
        public init() {}
    }
}
