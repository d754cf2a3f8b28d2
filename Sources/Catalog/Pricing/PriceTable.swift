import Foundation

/// Per-storefront prices from a catalog's sidecar file `NAME.prices.json`.
///
/// The format (version 1):
/// ```json
/// { "version": 1,
///   "prices": { "com.example.coins.100": { "USA": "0.99", "JPN": "160", "DEU": "0.99" } } }
/// ```
/// Keys of each product's object are storefront codes of `Storefront.all`; values are prices in
/// that storefront's currency, as decimal strings with no more digits than the currency has.
public struct PriceTable: Sendable, Hashable {
    /// The sidecar's path as given, for messages.
    public var file: String
    /// Prices by product identifier, then by storefront code (upper case).
    public var prices: [String: [String: Decimal]]

    /// Creates a table.
    public init(file: String, prices: [String: [String: Decimal]]) {
        self.file = file
        self.prices = prices
    }

    /// The price of `productID` in `storefront`, when the sidecar sets one.
    public func price(of productID: String, in storefront: Storefront) -> Price? {
        guard let amount = prices[productID]?[storefront.code] else { return nil }
        return Price(amount: amount, currencyCode: storefront.currencyCode)
    }

    /// Decodes a sidecar.
    ///
    /// - Parameters:
    ///   - data: the sidecar's bytes.
    ///   - file: the name to use in errors.
    ///   - productIDs: the catalog's product identifiers; any other identifier is an error (a typo).
    /// - Throws: `CatalogError` naming the sidecar file, the JSON path and the problem.
    public static func decode(data: Data, file: String, productIDs: Set<String>) throws(CatalogError) -> PriceTable {
        let document = try StoreKitConfiguration.parseJSON(data, file: file)
        let root = try ObjectReader(document.value, file: file, path: JSONPath.root, what: "a price sidecar")
        guard let version = try root.optionalInt("version") else {
            throw root.error("version", "missing version (expected 1)")
        }
        guard version == 1 else {
            throw root.error("version", "unsupported sidecar version \(version); this build reads version 1")
        }
        let productsValue = try root.required("prices")
        let products = try ObjectReader(
            productsValue, file: file, path: root.path(of: "prices"), what: "prices by product ID")
        var table: [String: [String: Decimal]] = [:]
        for (productID, value) in products.members {
            guard productIDs.contains(productID) else {
                throw products.error(productID, "no product \"\(productID)\" in the catalog")
            }
            let byStorefront = try ObjectReader(
                value, file: file, path: products.path(of: productID), what: "prices by storefront code")
            var entry: [String: Decimal] = [:]
            for code in byStorefront.members.keys {
                guard let storefront = Storefront.named(code), storefront.code == code else {
                    throw byStorefront.error(
                        code,
                        "unknown storefront \"\(code)\"; expected an upper-case ISO 3166 alpha-3 code from the storefront table, e.g. USA, JPN, DEU"
                    )
                }
                entry[code] = try byStorefront.price(code, in: storefront.currencyCode)
            }
            table[productID] = entry
        }
        return PriceTable(file: file, prices: table)
    }
}
