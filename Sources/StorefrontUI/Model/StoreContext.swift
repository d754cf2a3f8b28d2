/// Where the app shops: storefront, locale, account, and the choices the store offers.
public struct StoreContext: Hashable, Sendable {
    /// The storefront, ISO 3166 alpha-3 (`USA`, `JPN`).
    public var storefront: String
    /// The locale products are shown in (`en_US`, `ja_JP`).
    public var locale: String
    /// The signed-in account's name.
    public var account: String
    /// The storefronts the store knows.
    public var storefronts: [StorefrontOption]
    /// The locales the catalog is localized in.
    public var locales: [String]
    /// The products whose price in this storefront is an estimate: no price is set for it (in
    /// the catalog's price sidecar), so the catalog's price is read in the storefront's currency.
    public var estimatedPrices: Set<String>

    /// Creates a context.
    public init(
        storefront: String, locale: String, account: String, storefronts: [StorefrontOption] = [], locales: [String] = [],
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

/// A storefront the user may switch to.
public struct StorefrontOption: Hashable, Sendable {
    /// ISO 3166 alpha-3 code (`JPN`).
    public var code: String
    /// The country's English name (`Japan`).
    public var name: String
    /// ISO 4217 currency (`JPY`).
    public var currencyCode: String
    /// The storefront's usual locale (`ja_JP`).
    public var defaultLocale: String

    /// Creates an option.
    public init(code: String, name: String, currencyCode: String, defaultLocale: String) {
        self.code = code
        self.name = name
        self.currencyCode = currencyCode
        self.defaultLocale = defaultLocale
    }
}
