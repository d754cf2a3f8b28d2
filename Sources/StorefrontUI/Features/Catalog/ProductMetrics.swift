import StoreKitValues

/// What the product list needs to know of every product, measured once per load rather than
/// every frame: the price as shown, the display widths of names and prices, and where each
/// product is by identifier.
public struct ProductMetrics: Equatable, Sendable {
    /// Each product's price as the list shows it: per period for subscriptions, `≈` before an
    /// estimated price.
    public let prices: [String]
    /// The display width of each product's name.
    public let nameWidths: [Int]
    /// The display width of each shown price.
    public let priceWidths: [Int]
    /// The widest name.
    public let widestName: Int
    /// The widest shown price.
    public let widestPrice: Int
    /// The widest type name.
    public let widestType: Int
    /// Each product's index, by identifier.
    public let position: [String: Int]

    /// Measures `products` for the interface's language, marking the estimated prices.
    public init(products: [Product], strings: Strings, estimated: Set<String>) {
        var prices: [String] = []
        var nameWidths: [Int] = []
        var priceWidths: [Int] = []
        var position: [String: Int] = [:]
        prices.reserveCapacity(products.count)
        for (index, product) in products.enumerated() {
            var price = SubscriptionTerms.listPrice(product, strings)
            if estimated.contains(product.id) { price = Self.estimateMark + price }
            prices.append(price)
            nameWidths.append(DisplayWidth.of(State.shownName(product)))
            priceWidths.append(DisplayWidth.of(price))
            if position[product.id] == nil { position[product.id] = index }
        }
        self.prices = prices
        self.nameWidths = nameWidths
        self.priceWidths = priceWidths
        widestName = nameWidths.max() ?? 0
        widestPrice = priceWidths.max() ?? 0
        let types = Set(products.map(\.type))
        widestType = types.map { DisplayWidth.of(strings.typeName($0)) }.max() ?? 0
        self.position = position
    }

    /// Nothing measured yet.
    public static let empty = ProductMetrics(products: [], strings: Strings(.english), estimated: [])

    /// The mark before a price no one set for the storefront.
    public static let estimateMark = "≈"
}
