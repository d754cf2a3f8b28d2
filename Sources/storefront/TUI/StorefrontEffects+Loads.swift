import Catalog
import Foundation
import LocalAppStore
import StoreCore
import StorefrontUI

/// What the storefront loads: where it shops, the products, the account's purchases, the
/// settings, and one product's price in every storefront.
extension StorefrontEffects {
    func context() async -> StoreContext {
        Self.context(
            catalog: session.selection.catalog, storefront: await backend.storefront, locale: await backend.locale,
            account: backend.configuration.account.displayName)
    }

    /// Where the storefront shops, from the catalog and the store's storefront, locale and account.
    static func context(
        catalog: StoreKitConfiguration, storefront: Storefront, locale: String, account: String
    ) -> StoreContext {
        var locales: [String] = []
        for product in catalog.products {
            for localization in product.localizations where !locales.contains(localization.locale) {
                locales.append(localization.locale)
            }
        }
        // Without a price for this storefront, the catalog's number is read in its currency.
        let estimated = Set(
            catalog.products.filter { catalog.prices?.price(of: $0.id, in: storefront) == nil }.map(\.id))
        return StoreContext(
            storefront: storefront.code, locale: locale, account: account,
            storefronts: Storefront.all,
            locales: locales, estimatedPrices: estimated)
    }

    /// The products for the current storefront and locale, in catalog order.
    func products() async -> Result<[Product], StoreError> {
        let catalog = session.selection.catalog
        do {
            let response = try await store.requestProducts(Set(catalog.products.map(\.id)), useCache: false)
            let order = Dictionary(
                catalog.products.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            return .success(response.products.sorted { (order[$0.id] ?? 0) < (order[$1.id] ?? 0) })
        } catch {
            return .failure(error)
        }
    }

    func purchases() async -> Result<PurchasesSnapshot, StoreError> {
        do {
            let history = try await store.history().sorted { $0.purchaseDate > $1.purchaseDate }
            let balances = try await store.balances()
            let entitlements = try await store.currentEntitlements()
            var owned: Set<String> = []
            var activeUntil: [String: Date] = [:]
            for entitlement in entitlements {
                if let expires = entitlement.expiresDate {
                    activeUntil[entitlement.productID] = max(expires, activeUntil[entitlement.productID] ?? expires)
                } else if entitlement.productType != .consumable {
                    owned.insert(entitlement.productID)
                }
            }
            let pending = try await backend.pending().map { item -> Transaction in
                var transaction = item.transaction
                if item.reason == .interrupted { transaction.error = .interrupted }
                return transaction
            }
            var orderIDs: [String: String] = [:]
            for t in history where t.state == .purchased {
                orderIDs[t.transactionID] = LocalAppStore.orderID(forTransactionID: t.transactionID)
            }
            return .success(
                PurchasesSnapshot(
                    transactions: history, balances: balances, owned: owned, activeUntil: activeUntil, pending: pending,
                    subscriptions: try await managedSubscriptions(history: history), orderIDs: orderIDs))
        } catch let error as StoreError {
            return .failure(error)
        } catch let error as LocalAppStoreError {
            return .failure(error.storeError)
        } catch {
            return .failure(.persistenceFailed("\(error)"))
        }
    }

    /// The settings as the window shows them, made from the local store's one registry.
    func settings() async -> Result<[SettingRow], StoreError> {
        do {
            return .success(
                try await backend.settings().map {
                    SettingRow(
                        name: $0.name, label: $0.label, value: $0.value, choices: $0.choices,
                        unit: Self.unit($0.synopsis),
                        help: $0.help)
                })
        } catch {
            return .failure(error.storeError)
        }
    }

    /// What a setting's number counts, from its usage placeholder in the registry.
    static func unit(_ synopsis: String) -> SettingRow.Unit {
        switch synopsis {
        case "BYTES_PER_SECOND": .bytesPerSecond
        case "MILLISECONDS": .milliseconds
        default: .none
        }
    }

    /// One product's price in every storefront, each in its own currency and usual locale
    /// (Catalog's `price(for:in:)`), estimates marked.
    func priceComparison(_ productID: String) async -> [StorefrontPrice] {
        let catalog = session.selection.catalog
        guard let product = catalog.product(id: productID) else { return [] }
        return Storefront.all.map { storefront in
            let price = catalog.price(for: product, in: storefront)
            return StorefrontPrice(
                storefront: storefront, displayPrice: price.formatted(locale: Locale(identifier: storefront.locale)),
                isEstimated: catalog.prices?.price(of: productID, in: storefront) == nil)
        }
    }
}
