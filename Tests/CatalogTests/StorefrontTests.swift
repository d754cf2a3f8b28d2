import Foundation
import Testing

@testable import Catalog

@Suite struct StorefrontTests {
    static let required = [
        "USA", "CHN", "JPN", "GBR", "DEU", "FRA", "KOR", "CAN", "AUS", "BRA", "IND", "ITA", "ESP", "RUS",
        "MEX", "NLD", "TUR", "SAU", "ARE", "CHE", "SWE", "TWN", "HKG", "IDN", "THA", "SGP", "MYS", "PHL",
        "VNM", "POL", "NOR", "DNK", "ISR", "ZAF", "ARG", "CHL", "COL", "EGY", "NZL", "AUT", "BEL", "IRL",
        "PRT", "FIN",
    ]

    @Test func coversTheLargestStorefrontsOnceEach() {
        let codes = Storefront.all.map(\.code)
        #expect(codes.count >= 40)
        #expect(Set(codes).count == codes.count)
        for code in Self.required { #expect(Storefront.named(code) != nil, "\(code)") }
    }

    @Test func everyEntryIsWellFormed() {
        let isoCurrencies = Set(Locale.commonISOCurrencyCodes)
        for storefront in Storefront.all {
            #expect(storefront.code.count == 3 && storefront.code == storefront.code.uppercased(), "\(storefront.code)")
            #expect(isoCurrencies.contains(storefront.currencyCode), "\(storefront.code) \(storefront.currencyCode)")
            let locale = Locale(identifier: storefront.locale)
            #expect(locale.language.languageCode != nil, "\(storefront.locale)")
            #expect(!storefront.name.isEmpty)
        }
    }

    @Test func lookupIgnoresCaseAndKnowsCurrencies() {
        #expect(Storefront.named("jpn")?.currencyCode == "JPY")
        #expect(Storefront.named("DEU")?.locale == "de_DE")
        #expect(Storefront.named("IND")?.currencyCode == "INR")
        #expect(Storefront.named("XYZ") == nil)
        #expect(Storefront.named("") == nil)
    }
}
