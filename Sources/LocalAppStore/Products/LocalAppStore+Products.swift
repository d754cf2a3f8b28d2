import StoreCore

extension LocalAppStore {
    /// The catalog's products as a store opened for `storefront` and `locale` (with no setting
    /// failing product loads) returns them, in catalog order, without opening any state: what
    /// a storefront can show before its store is open.
    public static func localizedProducts(
        of catalog: StoreKitConfiguration, storefront: Storefront, locale: String
    ) -> [StoreCore.Product] {
        let localizer = ProductLocalizer(catalog: catalog, storefront: storefront, locale: locale)
        return catalog.products.map(localizer.localize)
    }
}
