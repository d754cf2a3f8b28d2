import StoreKitValues

/// An App Store storefront (country code, name, currency, locale, Apple's ID): one type, defined
/// in `StoreKitValues`, which the engine names too; the table of storefronts is the catalog's.
public typealias Storefront = StoreKitValues.Storefront

extension Storefront {
    /// The storefront with alpha-3 `code` (any letter case) from `all`, else `nil`.
    public static func named(_ code: String) -> Storefront? {
        byCode[code.uppercased()]
    }

    /// The United States storefront, the default when a catalog names none.
    public static let unitedStates = Storefront(
        code: "USA", name: "United States", currencyCode: "USD", locale: "en_US", storefrontID: "143441")

    private static let byCode: [String: Storefront] = Dictionary(
        all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
}
