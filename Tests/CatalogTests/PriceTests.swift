import Foundation
import Testing

@testable import Catalog

@Suite struct PriceTests {
    func price(_ text: String, _ currency: String) throws -> Price {
        Price(amount: try #require(Decimal(string: text)), currencyCode: currency)
    }

    @Test func yenHasNoDecimals() throws {
        let yen = try price("1200", "JPY")
        let formatted = yen.formatted(locale: Locale(identifier: "ja_JP"))
        #expect(formatted.contains("1,200"))
        #expect(formatted.contains("¥") || formatted.contains("￥"))
        #expect(!formatted.contains("."))
        #expect(yen.decimalString == "1200")
    }

    @Test func localesFormatTheirOwnWay() throws {
        let euro = try price("9.99", "EUR")
        #expect(euro.formatted(locale: Locale(identifier: "de_DE")) == "9,99\u{A0}€")
        #expect(euro.formatted(locale: Locale(identifier: "fr_FR")) == "9,99\u{A0}€")
        #expect(try price("29.90", "BRL").formatted(locale: Locale(identifier: "pt_BR")) == "R$\u{A0}29,90")
        #expect(try price("68", "CNY").formatted(locale: Locale(identifier: "zh_CN")) == "¥68.00")
        #expect(try price("9.99", "USD").formatted(locale: Locale(identifier: "en_US")) == "$9.99")
        #expect(try price("799", "INR").formatted(locale: Locale(identifier: "en_IN")) == "₹799.00")
        #expect(try price("1234.5", "EUR").formatted(locale: Locale(identifier: "de_DE")) == "1.234,50\u{A0}€")
    }

    @Test func decimalStringIsExactAndPadsToMinorUnits() throws {
        #expect(try price("1.5", "USD").decimalString == "1.50")
        #expect(try price("0.99", "USD").decimalString == "0.99")
        #expect(try price("3", "EUR").decimalString == "3.00")
        #expect(try price("0.99", "JPY").decimalString == "0.99")
        #expect(try price("1.2345", "USD").decimalString == "1.2345")
        #expect(try price("1", "KWD").decimalString == "1.000")
        #expect(Price.minorUnits(of: "krw") == 0)
    }

    @Test func withoutSidecarTheCatalogPriceIsReadInTheStorefrontCurrency() throws {
        let product = StoreKitConfiguration.Product(
            id: "p", referenceName: "P", kind: .consumable, price: try #require(Decimal(string: "4.99")))
        let catalog = StoreKitConfiguration(
            file: "x", products: [product], settings: CatalogSettings(storefront: "GBR"))
        let japan = try #require(Storefront.named("JPN"))
        #expect(catalog.price(for: product, in: japan) == Price(amount: 5, currencyCode: "JPY"), "rounded to whole yen")
        #expect(
            catalog.price(for: product, in: try #require(Storefront.named("DEU")))
                == Price(amount: product.price, currencyCode: "EUR"))
        #expect(catalog.defaultStorefront.code == "GBR")
        #expect(StoreKitConfiguration(file: "x", products: []).defaultStorefront.code == "USA")
    }

    @Test(arguments: [
        ("0.99", "KOR", "1"), ("5.5", "JPN", "6"), ("5.49", "JPN", "5"), ("0.4", "CHL", "0"),
        ("1.2345", "USA", "1.23"), ("1.235", "USA", "1.24"), ("1.99", "DEU", "1.99"),
    ])
    func anEstimateIsRoundedToTheCurrencysMinorUnits(_ catalogPrice: String, _ code: String, _ charged: String) throws {
        let product = StoreKitConfiguration.Product(
            id: "p", referenceName: "P", kind: .consumable, price: try #require(Decimal(string: catalogPrice)))
        let catalog = StoreKitConfiguration(file: "x", products: [product])
        let price = catalog.price(for: product, in: try #require(Storefront.named(code)))
        #expect(price.decimalString == charged)
        // What the customer is shown is the amount charged.
        let shown = Price(amount: try #require(Decimal(string: charged)), currencyCode: price.currencyCode)
        #expect(
            price.formatted(locale: Locale(identifier: "en_US")) == shown.formatted(locale: Locale(identifier: "en_US"))
        )
    }
}
