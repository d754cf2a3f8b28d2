import StoreKitValues

extension SettingsFeature {
    /// What happens to Store Settings.
    public enum Action: Hashable, Sendable {
        /// The menu's item (or `o`): open on the first setting and load them.
        case open
        /// A key in the window.
        case key(Key)
        /// The store's settings.
        case loaded(Result<[SettingRow], StoreError>)
        /// A setting change was refused or applied (the settings come back with it).
        case changed(name: String, value: String, Result<[SettingRow], StoreError>)
    }
}
