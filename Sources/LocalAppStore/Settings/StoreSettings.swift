import Foundation
import StoreCore

/// The store's settings and storefront: what the CLI's `store set` and the storefront's
/// settings screen read and change. The settings live in the journal, so every process sees
/// a change on its next operation; the storefront is this instance's. Reach it as
/// `store.settings`; the values are `LocalStoreSettings`, declared once in its registry.
public struct StoreSettings: Sendable {
    let store: LocalAppStore

    /// Every setting with its value and description, in display order.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func all() async throws(LocalAppStoreError) -> [StoreSetting] {
        try await current().entries
    }

    /// The settings as values.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func current() async throws(LocalAppStoreError) -> LocalStoreSettings {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            return store.state.settings
        }
    }

    /// Changes one setting (persisted; other processes see it on their next operation). A
    /// change of the time rate journals the renewals due at the old rate first, in the same
    /// write (`Subscriptions.timeRateChange`).
    /// - Parameters:
    ///   - name: one of `LocalStoreSettings.names`, e.g. `ask-to-buy`.
    ///   - value: e.g. `on`, `off`, `250`, `network`.
    /// - Throws: `.unknownSetting` or `.invalidSettingValue`, naming what is accepted.
    public func set(name: String, value: String) async throws(LocalAppStoreError) {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            let rules = ChargingRules(localizer: store.localizer, now: store.configuration.clock.now)
            let (rateChanged, _) = try store.transactAndAnnounce { state throws(LocalAppStoreError) in
                var settings = state.settings
                try settings.set(name: name, value: value)
                guard settings != state.settings else { return ([], false) }
                guard settings.storeTimeRate != state.settings.storeTimeRate else {
                    return ([JournalRecord.make(settings)], false)
                }
                let records = Subscriptions.timeRateChange(
                    to: settings, accountID: account, rules: rules, state: &state)
                return (records, true)
            }
            if rateChanged { Subscriptions.changed(in: store) }
        }
    }

    /// The current storefront.
    public var storefront: Storefront {
        get async { await store.perform { $0.localizer.storefront } }
    }

    /// The current display locale.
    public var locale: String {
        get async { await store.perform { $0.localizer.locale } }
    }

    /// Moves the account to another storefront (and locale); products are localized anew, and
    /// a move to another storefront goes out on the event stream as `.storefrontChanged`.
    /// - Parameters:
    ///   - code: an ISO 3166 alpha-3 storefront code, e.g. `JPN`.
    ///   - locale: the display locale; `nil` for the storefront's own.
    /// - Throws: `.unknownStorefront` when the code is not in the storefront table.
    public func setStorefront(_ code: String, locale: String? = nil) async throws(LocalAppStoreError) {
        guard let storefront = Storefront.named(code) else { throw .unknownStorefront(code) }
        await store.perform { store in
            if store.relocalize(storefront: storefront, locale: locale ?? storefront.locale) {
                store.send(.storefrontChanged(storefront))
            }
        }
    }
}

extension LocalAppStore {
    /// The store's settings (Ask to Buy, simulated errors, latency, time rate…) and storefront.
    public nonisolated var settings: StoreSettings { StoreSettings(store: self) }
}
