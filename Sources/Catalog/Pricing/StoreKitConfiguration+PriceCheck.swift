import Foundation

extension StoreKitConfiguration {
    /// The file's prices that `choice`'s currency cannot charge exactly, one warning each: the
    /// file, the price's JSON path, the price as written, the currency and where the storefront
    /// came from. Such a price is charged rounded to the currency's minor units (the one pricing
    /// rule, `price(for:in:)`), so the catalog still loads.
    ///
    /// A product whose price the price sidecar sets for that storefront is not estimated, so its
    /// prices are not checked. Free offers cost nothing, whatever price Xcode left on them.
    /// - Parameter choice: the storefront the catalog is used in.
    public func priceWarnings(for choice: StorefrontChoice) -> [CatalogWarning] {
        let currency = choice.storefront.currencyCode
        let digits = Price.minorUnits(of: currency)
        let places = digits == 0 ? "no decimal places" : digits == 1 ? "1 decimal place" : "\(digits) decimal places"
        return priceSites.compactMap { site in
            if prices?.price(of: site.productID, in: choice.storefront) != nil { return nil }
            let rounded = Price(amount: site.amount, currencyCode: currency).roundedToMinorUnits
            guard rounded.amount != site.amount else { return nil }
            return CatalogWarning(
                file: file, path: site.path,
                problem:
                    "price \"\(site.text)\" cannot be charged exactly in \(currency), which has \(places) (storefront \(choice.explanation)); it is rounded to \(rounded.decimalString)"
            )
        }
    }

    /// The storefront the catalog is used in when nothing else chooses: its `_storefront`, else
    /// the United States, with where that came from.
    public var defaultStorefrontChoice: StorefrontChoice {
        if let code = settings.storefront, let storefront = Storefront.named(code) {
            return StorefrontChoice(storefront: storefront, source: .catalogSettings)
        }
        return StorefrontChoice(storefront: .unitedStates, source: .defaultStorefront)
    }
}
