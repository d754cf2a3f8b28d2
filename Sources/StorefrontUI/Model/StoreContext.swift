import StoreKitValues

/// Where the app shops: storefront, locale, account, and the choices the store offers.
public struct StoreContext: Hashable, Sendable {
    /// The storefront, ISO 3166 alpha-3 (`USA`, `JPN`).
    public var storefront: String
    /// The locale products are shown in (`en_US`, `ja_JP`).
    public var locale: String
    /// The signed-in account's name.
    public var account: String
    /// The storefronts the user may switch to (Catalog's `Storefront.all`).
    public var storefronts: [Storefront]
    /// The locales the catalog is localized in.
    public var locales: [String]
    /// The products whose price in this storefront is an estimate: no price is set for it (in
    /// the catalog's price sidecar), so the catalog's price is read in the storefront's currency.
    public var estimatedPrices: Set<String>

    /// Creates a context.
    public init(
        storefront: String, locale: String, account: String, storefronts: [Storefront] = [], locales: [String] = [],
        estimatedPrices: Set<String> = []
    ) {
        self.storefront = storefront
        self.locale = locale
        self.account = account
        self.storefronts = storefronts
        self.locales = locales
        self.estimatedPrices = estimatedPrices
    }
}
