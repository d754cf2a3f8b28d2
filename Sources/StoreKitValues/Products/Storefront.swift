/// An App Store storefront: a country or region with its currency and default locale. The one
/// storefront type: the catalog's storefront table (`Storefront.all` in `Catalog`) lists them,
/// and the engine's `Store.storefront()` answers with one, as StoreKit 2's `Storefront.current`
/// does. `Catalog` and `StoreCore` both name it.
public struct Storefront: Codable, Sendable, Hashable, Identifiable {
    /// The ISO 3166-1 alpha-3 code App Store uses, e.g. `USA`, `JPN`.
    public var code: String
    /// The English name, e.g. `Japan`.
    public var name: String
    /// The ISO 4217 currency prices are charged in, e.g. `JPY`.
    public var currencyCode: String
    /// The default locale identifier, e.g. `ja_JP`.
    public var locale: String
    /// Apple's numeric storefront identifier, e.g. `143441` for the United States (what signed
    /// transactions carry as `storefrontId`); empty when unknown.
    public var storefrontID: String

    /// Creates a storefront.
    public init(code: String, name: String, currencyCode: String, locale: String, storefrontID: String = "") {
        self.code = code
        self.name = name
        self.currencyCode = currencyCode
        self.locale = locale
        self.storefrontID = storefrontID
    }

    /// The alpha-3 code, by StoreKit 2's name (`Storefront.countryCode`).
    public var countryCode: String { code }

    /// Apple's storefront identifier, as StoreKit 2's `Storefront.id` is (`storefrontID`; the
    /// alpha-3 code when the identifier is unknown).
    public var id: String { storefrontID.isEmpty ? code : storefrontID }
}
