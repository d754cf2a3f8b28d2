/// A product's price in one storefront, for the price comparison of the details window.
public struct StorefrontPrice: Hashable, Sendable {
    /// ISO 3166 alpha-3 code (`JPN`).
    public var storefront: String
    /// The country's English name.
    public var name: String
    /// ISO 4217 currency.
    public var currencyCode: String
    /// The price as a customer there sees it (`¥160`).
    public var displayPrice: String
    /// Whether no price is set for this storefront (the catalog's price read in its currency).
    public var isEstimated: Bool

    /// Creates a row.
    public init(storefront: String, name: String, currencyCode: String, displayPrice: String, isEstimated: Bool) {
        self.storefront = storefront
        self.name = name
        self.currencyCode = currencyCode
        self.displayPrice = displayPrice
        self.isEstimated = isEstimated
    }
}
