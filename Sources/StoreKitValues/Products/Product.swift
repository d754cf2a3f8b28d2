import Foundation

/// A product as the store returns it: localized for one storefront and locale.
public struct Product: Codable, Hashable, Sendable, Identifiable {
    /// The product identifier, e.g. `com.storefront.demo.coins.100`.
    public let id: String
    /// The kind of product: consumable, non-consumable, auto-renewable or non-renewing.
    public let type: ProductType
    /// The localized name.
    public let displayName: String
    /// The localized description.
    public let description: String
    /// The price in the storefront's currency.
    public let price: Decimal
    /// The price formatted for the storefront's currency in the chosen locale.
    public let displayPrice: String
    /// ISO 4217 code of the price's currency.
    public let currencyCode: String
    /// The subscription details, for auto-renewable subscriptions.
    public let subscription: SubscriptionInfo?
    /// Whether the product has hosted content that is downloaded after purchase.
    public let hasDownloads: Bool
    /// Whether Family Sharing applies.
    public let isFamilyShareable: Bool

    /// Creates a product.
    public init(
        id: String, type: ProductType, displayName: String, description: String, price: Decimal,
        displayPrice: String, currencyCode: String, subscription: SubscriptionInfo? = nil,
        hasDownloads: Bool = false, isFamilyShareable: Bool = false
    ) {
        self.id = id
        self.type = type
        self.displayName = displayName
        self.description = description
        self.price = price
        self.displayPrice = displayPrice
        self.currencyCode = currencyCode
        self.subscription = subscription
        self.hasDownloads = hasDownloads
        self.isFamilyShareable = isFamilyShareable
    }
}
