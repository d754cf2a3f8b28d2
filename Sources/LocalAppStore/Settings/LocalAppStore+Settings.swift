import Foundation
import StoreCore

/// The store's settings and storefront: what the CLI's `store set` and the storefront's
/// settings screen read and change. The settings live in the journal, so every process sees
/// a change on its next operation.
extension LocalAppStore {
    /// Every setting with its value and description, in display order.
    public func settings() throws(LocalAppStoreError) -> [StoreSetting] {
        try refresh()
        return journal.state.settings.entries
    }

    /// The settings as values.
    public func currentSettings() throws(LocalAppStoreError) -> LocalStoreSettings {
        try refresh()
        return journal.state.settings
    }

    /// Changes one setting (persisted; other processes see it on their next operation).
    /// - Parameters:
    ///   - name: one of `LocalStoreSettings.names`, e.g. `ask-to-buy`.
    ///   - value: e.g. `on`, `off`, `250`, `network`.
    /// - Throws: `.unknownSetting` or `.invalidSettingValue`, naming what is accepted.
    public func set(name: String, value: String) throws(LocalAppStoreError) {
        let now = configuration.clock.now
        let (rateChanged, _) = try transactAndAnnounce { state throws(LocalAppStoreError) in
            var settings = state.settings
            try settings.set(name: name, value: value)
            guard settings != state.settings else { return ([], false) }
            guard settings.storeTimeRate != state.settings.storeTimeRate else {
                return ([JournalRecord.make(settings)], false)
            }
            return (timeRateChange(to: settings, state: &state, now: now), true)
        }
        if rateChanged { subscriptionsChanged() }
    }

    /// The current storefront.
    public var storefront: Storefront { localizer.storefront }

    /// The current display locale.
    public var locale: String { localizer.locale }

    /// The current storefront, for the engine (`StoreBackend.currentStorefront()`).
    public func currentStorefront() async -> Storefront? { localizer.storefront }

    /// Moves the account to another storefront (and locale); products are localized anew, and
    /// a move to another storefront goes out on the event stream as `.storefrontChanged`.
    /// - Parameters:
    ///   - code: an ISO 3166 alpha-3 storefront code, e.g. `JPN`.
    ///   - locale: the display locale; `nil` for the storefront's own.
    /// - Throws: `.unknownStorefront` when the code is not in the storefront table.
    public func setStorefront(_ code: String, locale: String? = nil) throws(LocalAppStoreError) {
        guard let storefront = Storefront.named(code) else { throw .unknownStorefront(code) }
        let moved = storefront != localizer.storefront
        localizer = ProductLocalizer(
            catalog: configuration.catalog, storefront: storefront, locale: locale ?? storefront.locale)
        if moved { fanOut.send(.storefrontChanged(storefront)) }
    }
}
