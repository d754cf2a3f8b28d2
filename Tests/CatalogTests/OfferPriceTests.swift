import Foundation
import Testing

@testable import Catalog

/// The one rule a subscription offer is priced by in a storefront
/// (`StoreKitConfiguration.price(of:for:in:)`): the catalog's offer price scaled by the
/// product's price there over its base price when they differ, rounded to the currency's minor
/// units; a free offer costs 0.
@Suite struct OfferPriceTests {
    static let month = SubscriptionPeriod(value: 1, unit: .month)

    /// A 9.99 monthly subscription, sold at ¥1,600 in JPN and 10,99 € in DEU by the sidecar and
    /// at the base price in USA; elsewhere an estimate.
    func catalog() throws -> (StoreKitConfiguration, StoreKitConfiguration.Product) {
        let product = StoreKitConfiguration.Product(
            id: "s", referenceName: "S", kind: .autoRenewable, price: try #require(Decimal(string: "9.99")))
        let prices = PriceTable(
            file: "S.prices.json",
            prices: [
                "s": [
                    "JPN": 1600, "DEU": try #require(Decimal(string: "10.99")),
                    "USA": try #require(Decimal(string: "9.99")),
                ]
            ])
        return (StoreKitConfiguration(file: "S.storekit", products: [product], prices: prices), product)
    }

    func offer(_ mode: PaymentMode, _ price: String) throws -> StoreKitConfiguration.SubscriptionOffer {
        .init(
            id: "o", paymentMode: mode, period: Self.month, numberOfPeriods: 2,
            price: try #require(Decimal(string: price)))
    }

    @Test(arguments: [
        // A sidecar price: 4.99 × 1600 / 9.99 = 799.19… yen; 4.99 × 10.99 / 9.99 = 5.4895… euros.
        ("JPN", "4.99", "799"), ("DEU", "4.99", "5.49"),
        // The base price itself: nothing to scale, already in cents.
        ("USA", "4.99", "4.99"),
        // An estimate in a zero-decimal currency: 9.99 reads ₩10, so 4.99 × 10 / 9.99 is ₩5 and
        // 0.49 is ₩0 (not a fraction of a won); in pesos the same.
        ("KOR", "4.99", "5"), ("KOR", "0.49", "0"), ("CHL", "2.50", "3"),
        // An estimate in a currency with cents equals the base price: unchanged.
        ("GBR", "4.99", "4.99"),
    ])
    func aPaidOfferIsScaledByTheStorefrontsPriceAndRounded(
        _ code: String, _ catalogPrice: String, _ expected: String
    ) throws {
        let (catalog, product) = try catalog()
        let storefront = try #require(Storefront.named(code))
        for mode in [PaymentMode.payAsYouGo, .payUpFront] {
            let price = catalog.price(of: try offer(mode, catalogPrice), for: product, in: storefront)
            #expect(
                price.decimalString
                    == Price(amount: try #require(Decimal(string: expected)), currencyCode: price.currencyCode)
                    .decimalString,
                "\(mode) \(catalogPrice) in \(code)")
            #expect(price.currencyCode == storefront.currencyCode)
            #expect(price == price.roundedToMinorUnits, "no fraction of the currency's minor unit")
        }
    }

    @Test func aFreeOfferCostsZeroInEveryStorefront() throws {
        let (catalog, product) = try catalog()
        // A free offer built with a price (the decoder makes it 0; a caller might not) is still free.
        let free = try offer(.free, "1.99")
        for storefront in Storefront.all {
            let price = catalog.price(of: free, for: product, in: storefront)
            #expect(price.amount == 0 && price.currencyCode == storefront.currencyCode, "\(storefront.code)")
        }
    }

    /// A product whose base price is 0 has no ratio to scale by: the offer is read in the
    /// storefront's currency and rounded.
    @Test func aFreeBaseProductLeavesTheOfferUnscaled() throws {
        let product = StoreKitConfiguration.Product(id: "z", referenceName: "Z", kind: .autoRenewable, price: 0)
        let catalog = StoreKitConfiguration(
            file: "Z.storekit", products: [product],
            prices: PriceTable(file: "Z.prices.json", prices: ["z": ["JPN": 100]]))
        let price = catalog.price(
            of: try offer(.payAsYouGo, "1.5"), for: product, in: try #require(Storefront.named("JPN")))
        #expect(price == Price(amount: 2, currencyCode: "JPY"))
    }
}
