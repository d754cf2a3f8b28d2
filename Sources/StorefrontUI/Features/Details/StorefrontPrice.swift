import StoreKitValues

/// A product's price in one storefront, for the price comparison of the details window.
public struct StorefrontPrice: Hashable, Sendable {
    /// The storefront (its code, English name and currency).
    public var storefront: Storefront
    /// The price as a customer there sees it (`¥160`).
    public var displayPrice: String
    /// Whether no price is set for this storefront (the catalog's price read in its currency).
    public var isEstimated: Bool

    /// Creates a row.
    public init(storefront: Storefront, displayPrice: String, isEstimated: Bool) {
        self.storefront = storefront
        self.displayPrice = displayPrice
        self.isEstimated = isEstimated
    }
}

/// One product's price in every storefront, as the details window shows it.
public struct PriceComparison: Hashable, Sendable {
    /// The product.
    public var productID: String
    /// Its price in each storefront.
    public var prices: [StorefrontPrice]
}
