import Catalog
import Foundation
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

@Suite(.timeLimit(.minutes(10))) struct ProductsTests {
    @Test func productsAreLocalizedAndPricedForTheStorefront() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        let response = try await store.products(identifiers: [
            TestCatalog.coins, TestCatalog.monthly, TestCatalog.missing, "x",
        ])
        #expect(response.invalidProductIdentifiers == ["x", TestCatalog.missing].sorted())
        let byID = Dictionary(uniqueKeysWithValues: response.products.map { ($0.id, $0) })
        let coins = try #require(byID[TestCatalog.coins])
        #expect(coins.type == .consumable)
        #expect(coins.displayName == "100 Coins")
        #expect(coins.description == "A pile of coins")
        #expect(coins.price == Decimal(string: "0.99"))
        #expect(coins.displayPrice == "$0.99")
        #expect(coins.currencyCode == "USD")
        #expect(coins.hasDownloads == false)

        let monthly = try #require(byID[TestCatalog.monthly])
        #expect(monthly.type == .autoRenewable)
        let subscription = try #require(monthly.subscription)
        #expect(subscription.groupID == "G1")
        #expect(subscription.groupDisplayName == "Plus")
        #expect(subscription.groupLevel == 1)
        #expect(subscription.period == SubscriptionPeriod(value: 1, unit: .month))
        #expect(subscription.introductoryOffer?.paymentMode == .freeTrial)
        #expect(subscription.introductoryOffer?.period == SubscriptionPeriod(value: 1, unit: .week))
        #expect(subscription.introductoryOffer?.price == 0)
        #expect(subscription.promotionalOffers.map(\.id) == ["winback"])
        #expect(subscription.promotionalOffers.first?.periodCount == 2)
        #expect(subscription.promotionalOffers.first?.price == Decimal(string: "1.99"))
        #expect(subscription.promotionalOffers.first?.displayPrice == "$1.99")
    }

    /// An app imports Catalog and StoreCore together: the engine's names stay unqualified (the
    /// file's entries are nested in `StoreKitConfiguration`) and the period is one type.
    @Test func theCatalogsAndTheEnginesNamesDoNotCollide() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        let entry: StoreKitConfiguration.Product = try #require(
            store.configuration.catalog.product(id: TestCatalog.monthly))
        let filePeriod: SubscriptionPeriod = try #require(entry.subscription?.period)
        let product: Product = try #require(try await store.products(identifiers: [TestCatalog.monthly]).products.first)
        let info: SubscriptionInfo = try #require(product.subscription)
        let intro: SubscriptionOffer = try #require(info.introductoryOffer)
        #expect(info.period == filePeriod, "the file's period is the engine's, not a copy")
        #expect(intro.period == entry.subscription?.introductoryOffer?.period)
    }

    @Test func changingTheStorefrontRelocalizesWithFallbackToTheCatalogLocale() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try await store.settings.setStorefront("JPN")
        #expect(await store.settings.locale == "ja_JP")
        let japanese = try #require(
            try await store.products(identifiers: [TestCatalog.coins, TestCatalog.pro]).products.first)
        #expect(japanese.displayName == "コイン100枚")
        #expect(japanese.currencyCode == "JPY")
        #expect(japanese.displayPrice.contains("￥") || japanese.displayPrice.contains("¥"))

        let pro = try #require(try await store.products(identifiers: [TestCatalog.pro]).products.first)
        #expect(pro.displayName == "Pro")  // no Japanese text: the catalog's en_US

        try await store.settings.setStorefront("DEU", locale: "de_DE")
        let german = try #require(try await store.products(identifiers: [TestCatalog.coins]).products.first)
        #expect(german.displayName == "100 Münzen")
        #expect(german.currencyCode == "EUR")
        #expect(german.displayPrice.contains("€"))
        #expect(german.displayPrice.contains("0,99"))

        await #expect(throws: LocalAppStoreError.unknownStorefront("XYZ")) {
            try await store.settings.setStorefront("XYZ")
        }

        var events = EventReader(await store.events())
        let bought = try await buy(store, &events, TestCatalog.coins)
        #expect(bought.storefront == "DEU")
        #expect(bought.currencyCode == "EUR")
    }

    /// A product's win-back offers reach the engine (StoreKit 2's `SubscriptionInfo.winBackOffers`),
    /// priced in the storefront as every offer is.
    @Test func winBackOffersReachTheEnginesProduct() async throws {
        let dir = try TemporaryDirectory()
        let winBack = #"""
            "codeOffers" : [], "winbackOffers" : [ { "internalID" : "W1", "offerID" : "comeback", "paymentMode" : "payUpFront",
                                                      "displayPrice" : "0.99", "numberOfPeriods" : 1, "subscriptionPeriod" : "P1M" } ],
            """#
        let json = TestCatalog.json().replacingOccurrences(of: #""codeOffers" : [],"#, with: winBack)
        let catalog = try StoreKitConfiguration.decode(data: Data(json.utf8), file: "Test.storekit")
        let store = try makeStore(dir, catalog: catalog)
        let monthly = try #require(
            try await store.products(identifiers: [TestCatalog.monthly]).products.first?.subscription)
        #expect(monthly.winBackOffers.map(\.id) == ["comeback"])
        #expect(monthly.winBackOffers.first?.kind == .winBack)
        #expect(monthly.winBackOffers.first?.paymentMode == .payUpFront)
        #expect(monthly.winBackOffers.first?.displayPrice == "$0.99")
        #expect(monthly.promotionalOffers.map(\.id) == ["winback"], "a win-back offer is not a promotional one")
    }

    @Test func aPriceSidecarSetsTheStorefrontPriceAndScalesOffers() async throws {
        let dir = try TemporaryDirectory()
        var catalog = try TestCatalog.load()
        catalog.prices = PriceTable(file: "Test.prices.json", prices: [TestCatalog.monthly: ["JPN": 450]])
        let store = try makeStore(dir, catalog: catalog)
        try await store.settings.setStorefront("JPN")
        let monthly = try #require(try await store.products(identifiers: [TestCatalog.monthly]).products.first)
        #expect(monthly.price == 450)
        #expect(monthly.currencyCode == "JPY")
        // The 1.99 offer on a 2.99 base is 1.99 × 450 / 2.99 = 299.49… → ¥299 (no minor units).
        let offer = try #require(monthly.subscription?.promotionalOffers.first)
        #expect(offer.price == 299)
        #expect(offer.displayPrice.contains("299"))
        #expect(monthly.subscription?.introductoryOffer?.price == 0)
    }

    @Test func theStartStorefrontAndLocaleComeFromTheCatalogUnlessConfigured() async throws {
        let dir = try TemporaryDirectory()
        let catalog = try TestCatalog.load(settings: #""_locale" : "de_DE", "_storefront" : "DEU""#)
        let store = try makeStore(dir, catalog: catalog)
        #expect(await store.settings.storefront.code == "DEU")
        #expect(await store.settings.locale == "de_DE")
        let configured = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: catalog, stateDirectory: dir.stateDirectory, storefront: Storefront.named("GBR"),
                locale: "en_GB",
                clock: ManualClock(), initialLatencyMilliseconds: 0))
        #expect(await configured.settings.storefront.code == "GBR")
        #expect(await configured.settings.locale == "en_GB")
    }
}
