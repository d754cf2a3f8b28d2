/// The answer to a products request: the products found and the identifiers that are not.
public struct ProductsResponse: Codable, Hashable, Sendable {
    /// The products the store sells among those asked for, sorted by identifier.
    public let products: [Product]
    /// Requested identifiers the store does not sell, sorted.
    public let invalidProductIdentifiers: [String]

    /// Creates a response.
    public init(products: [Product], invalidProductIdentifiers: [String]) {
        self.products = products
        self.invalidProductIdentifiers = invalidProductIdentifiers
    }
}
