import Foundation
import TestSupport
import Testing

@testable import Catalog

/// The bundled `Catalogs/Demo.storekit` and its price sidecar hold what Docs/cli.md promises.
@Suite struct DemoCatalogTests {
    static let url = DemoCatalog.url
    static let locales = ["en_US", "zh_CN", "ja_JP", "de_DE", "fr_FR", "pt_BR"]
    static let storefronts = ["USA", "CHN", "JPN", "DEU", "FRA", "GBR", "BRA", "IND"]

    @Test func hasEveryKindOfProduct() throws {
        let demo = try StoreKitConfiguration.load(contentsOf: Self.url)
        #expect(demo.products.count >= 16)
        #expect(demo.products.filter { $0.kind == .consumable }.count >= 4)
        #expect(demo.products.filter { $0.kind == .nonRenewing }.count >= 1)
        for hosted in [
            "com.storefront.demo.levelpack.forest", "com.storefront.demo.stickers.cats",
            "com.storefront.demo.sounds.synthwave",
        ] {
            #expect(demo.product(id: hosted)?.kind == .nonConsumable, "\(hosted)")
        }
        #expect(demo.subscriptionGroups.count == 1)
        let group = try #require(demo.subscriptionGroups.first)
        let subscriptions = group.productIDs.compactMap { demo.product(id: $0)?.subscription }
        #expect(Set(subscriptions.map(\.groupNumber)).count >= 3)
        #expect(Set(subscriptions.map(\.period.unit)) == [.month, .year])
        #expect(subscriptions.contains { $0.introductoryOffer?.paymentMode == .free })
        #expect(subscriptions.contains { !$0.promotionalOffers.isEmpty })
        #expect(Set(group.localizations.map(\.locale)) == Set(Self.locales))
        #expect(demo.version == StoreKitConfiguration.FormatVersion(major: 6, minor: 0), "it has billing plans")
    }

    @Test func everyProductIsLocalizedInSixLanguages() throws {
        let demo = try StoreKitConfiguration.load(contentsOf: Self.url)
        for product in demo.products {
            #expect(product.localizations.map(\.locale) == Self.locales, "\(product.id)")
            for localization in product.localizations {
                #expect(
                    !localization.displayName.isEmpty && !localization.description.isEmpty,
                    "\(product.id) \(localization.locale)")
            }
            // A translation, not a copy: the Japanese and Chinese names differ from the English one.
            #expect(product.localization(for: "ja_JP")?.displayName != product.localization(for: "en_US")?.displayName)
            #expect(product.localization(for: "zh_CN")?.displayName != product.localization(for: "en_US")?.displayName)
        }
    }

    @Test func sidecarHasRealisticPricePointsForEightStorefronts() throws {
        let demo = try StoreKitConfiguration.load(contentsOf: Self.url)
        let table = try #require(demo.prices)
        for product in demo.products {
            let prices = try #require(table.prices[product.id], "\(product.id)")
            #expect(Set(prices.keys) == Set(Self.storefronts), "\(product.id)")
            #expect(prices["USA"] == product.price)
            for (code, amount) in prices {
                let text = Price(amount: amount, currencyCode: Storefront.named(code)?.currencyCode ?? "").decimalString
                switch code {
                case "JPN", "CHN", "IND":
                    #expect(!amount.description.contains("."), "whole number: \(product.id) \(code) \(amount)")
                case "DEU", "FRA", "USA", "GBR": #expect(text.hasSuffix(".99"), "\(product.id) \(code) \(text)")
                case "BRA": #expect(text.hasSuffix(".90"), "\(product.id) \(code) \(text)")
                default: Issue.record("unexpected storefront \(code)")
                }
            }
            // Higher base prices stay higher in every storefront.
            for other in demo.products where other.price > product.price {
                for code in Self.storefronts {
                    #expect(
                        (table.prices[other.id]?[code] ?? 0) > (prices[code] ?? 0),
                        "\(other.id) vs \(product.id) in \(code)")
                }
            }
        }
    }
}
