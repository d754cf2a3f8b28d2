import Foundation

/// Offer codes on the products outside the subscription groups: consumables, non-consumables
/// and non-renewing subscriptions (Docs/decisions/0055-offer-codes-on-every-product-type.md).
extension ConfigurationDecoder {
    private static let oneTimeOfferKeys: KnownKeys = [
        "offerID", "internalID", "referenceName", "paymentMode", "displayPrice",
    ]
    /// The payment modes a one-time code offer may name: Apple's `ONE_TIME`, or free.
    private static let oneTimeModes = ["oneTime", "free"]

    /// The `codeOffers` of the one-time product `object`, in file order.
    mutating func decodeOneTimeOffers(
        _ object: ObjectReader<JSONElement>, productID: String
    ) throws(CatalogError) -> [StoreKitConfiguration.OneTimeOffer] {
        var offers: [StoreKitConfiguration.OneTimeOffer] = []
        let offersPath = object.path(of: "codeOffers")
        for (index, element) in try object.optionalArray("codeOffers").enumerated() {
            let offer = try ObjectReader(
                element, file: file, path: JSONPath.element(index, of: offersPath), what: "a code offer")
            offers.append(try decodeOneTimeOffer(offer, productID: productID))
        }
        return offers
    }

    /// One code offer of a one-time product: a name to address it by, and its price (`free`
    /// costs 0 whatever `displayPrice` says, as on a subscription's offers).
    private mutating func decodeOneTimeOffer(
        _ object: ObjectReader<JSONElement>, productID: String
    ) throws(CatalogError) -> StoreKitConfiguration.OneTimeOffer {
        let mode = try object.optionalString("paymentMode") ?? "oneTime"
        guard Self.oneTimeModes.contains(mode) else {
            throw object.error(
                "paymentMode",
                "unknown payment mode \"\(mode)\" for a code offer of a one-time product; expected one of "
                    + Self.oneTimeModes.joined(separator: ", "))
        }
        let price: Decimal
        if object.member("displayPrice") != nil {
            let written = try readPrice(object, "displayPrice", productID: productID, charged: mode != "free")
            price = mode == "free" ? 0 : written
        } else if mode == "free" {
            price = 0
        } else {
            throw object.error("displayPrice", "missing displayPrice for a code offer that is not free")
        }
        let offer = StoreKitConfiguration.OneTimeOffer(
            id: try object.optionalString("offerID"), internalID: try object.optionalString("internalID"),
            referenceName: try object.optionalString("referenceName"), price: price,
            extra: object.extra(excluding: Self.oneTimeOfferKeys))
        guard offer.identifier != nil else {
            throw CatalogError(
                file: file, path: object.path,
                problem: "a code offer needs an offerID, an internalID or a referenceName to be addressed by")
        }
        return offer
    }
}
