/// An App Store storefront: a country or region with its currency and default locale.
public struct Storefront: Sendable, Hashable, Identifiable {
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

    /// The alpha-3 code.
    public var id: String { code }

    /// The storefront with alpha-3 `code` (any letter case) from `all`, else `nil`.
    public static func named(_ code: String) -> Storefront? {
        byCode[code.uppercased()]
    }

    /// The United States storefront, the default when a catalog names none.
    public static let unitedStates = Storefront(
        code: "USA", name: "United States", currencyCode: "USD", locale: "en_US", storefrontID: "143441")

    private static let byCode: [String: Storefront] = Dictionary(all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
}
