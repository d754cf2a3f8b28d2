import StoreKitValues

extension SettingsFeature {
    /// The settings as last loaded, and the window's selection.
    public struct State: ScreenState {
        /// The store's settings.
        public var rows: [SettingRow] = []
        /// The selected row.
        public var selected = 0

        /// Nothing loaded yet.
        public init() {}
    }
}
