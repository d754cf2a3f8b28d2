import Foundation

/// Prices as Xcode and people write them.
extension ConfigurationDecoder {
    /// The price member `key` of `object`, read exactly. A lone decimal comma (`"2,99"`, typed
    /// on a Mac set to a comma locale) is read as a point, with a warning; a price with a
    /// fractional part is remembered so the storefront in use can check it (`priceWarnings(for:)`).
    /// - Parameters:
    ///   - productID: the product the price belongs to.
    ///   - charged: `false` for a price nothing charges (a free offer's stale `displayPrice`).
    mutating func readPrice(
        _ object: ObjectReader<JSONElement>, _ key: String, productID: String, charged: Bool = true
    ) throws(CatalogError) -> Decimal {
        let written = try object.writtenPrice(key)
        if written.readsDecimalComma {
            warnings.append(
                object.warning(
                    key,
                    "price \"\(written.text)\" has a comma for its decimal point; read as \(written.amount)"))
        }
        if charged, PriceSite.needsCheck(written.amount) {
            let location = object.location
            priceSites.append(
                PriceSite(
                    parentPath: location.parentPath, index: location.index, key: key, text: written.text,
                    amount: written.amount, productID: productID))
        }
        return written.amount
    }
}
