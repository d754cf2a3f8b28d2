import Foundation
import Testing

@testable import Catalog

/// What a catalog holds that is read, but not as written: each warning names the file, the
/// JSON path and the problem, word for word, and the catalog still loads.
@Suite struct CatalogWarningTests {
    static func product(_ price: String, id: String = "a") -> String {
        #"{"productID":"\#(id)","type":"Consumable","displayPrice":"\#(price)","referenceName":"A"}"#
    }

    static func load(_ text: String, file: String = "Shop.storekit") throws -> StoreKitConfiguration {
        try StoreKitConfiguration.decode(data: Data(text.utf8), file: file)
    }

    @Test func aNewerMajorVersionLoadsWithOneWarning() throws {
        let catalog = try Self.load(#"{"products":[\#(Self.product("0.99"))],"version":{"major":7,"minor":1}}"#)
        #expect(catalog.version == StoreKitConfiguration.FormatVersion(major: 7, minor: 1))
        #expect(catalog.products.map(\.id) == ["a"])
        #expect(
            catalog.warnings.map(\.description) == [
                "Shop.storekit: $.version: format version 7.1 is newer than this build knows (up to 6); read as version 6, members it does not know are kept as written"
            ])
        // What does not parse still gets its precise error.
        #expect(
            Fixtures.decodeError(#"{"products":[\#(Self.product("-1"))],"version":{"major":7}}"#)?.description
                == #"Bad.storekit: $.products[0].displayPrice: negative price "-1"; prices must be 0 or more"#)
    }

    @Test func aLoneDecimalCommaIsReadAsAPoint() throws {
        let catalog = try Self.load(#"{"products":[\#(Self.product("2,99"))]}"#)
        #expect(catalog.products.first?.price == Decimal(string: "2.99"))
        #expect(
            catalog.warnings.map(\.description) == [
                #"Shop.storekit: $.products[0].displayPrice: price "2,99" has a comma for its decimal point; read as 2.99"#
            ])
        #expect(catalog.priceWarnings(for: catalog.defaultStorefrontChoice).isEmpty)
        for text in ["2,99,1", "2,", ",99", "1.2,3"] {
            #expect(
                Fixtures.decodeError(#"{"products":[\#(Self.product(text))]}"#)?.problem
                    == #"malformed price "\#(text)"; expected a decimal such as "0.99""#)
        }
    }

    /// A file synced in Japan: prices in yen that yen cannot charge exactly.
    static let japan = #"""
        {"products":[\#(product("2.00", id: "two")),\#(product("4.80", id: "four")),\#(product("9.80", id: "nine"))],
         "settings":{"_storefront":"JPN"}}
        """#

    @Test func aPriceTheStorefrontCannotChargeLoadsRoundedWithAWarning() throws {
        let catalog = try Self.load(Self.japan)
        let japan = try #require(Storefront.named("JPN"))
        #expect(catalog.warnings.isEmpty)
        #expect(
            catalog.priceWarnings(for: catalog.defaultStorefrontChoice).map(\.description) == [
                #"Shop.storekit: $.products[1].displayPrice: price "4.80" cannot be charged exactly in JPY, which has no decimal places (storefront JPN, from settings._storefront); it is rounded to 5"#,
                #"Shop.storekit: $.products[2].displayPrice: price "9.80" cannot be charged exactly in JPY, which has no decimal places (storefront JPN, from settings._storefront); it is rounded to 10"#,
            ])
        #expect(catalog.products.map { catalog.price(for: $0, in: japan).amount } == [2, 5, 10])
        // Used in the United States, the same prices are dollars and cents: nothing to say.
        let usa = StorefrontChoice(storefront: .unitedStates, source: .option("--storefront"))
        #expect(catalog.priceWarnings(for: usa).isEmpty)
        #expect(catalog.products.map { catalog.price(for: $0, in: .unitedStates).amount } == [2, 4.8, 9.8])
    }

    @Test func theWarningSaysWhereTheStorefrontCameFrom() throws {
        let catalog = try Self.load(#"{"products":[\#(Self.product("1.999"))]}"#)
        #expect(
            catalog.priceWarnings(for: catalog.defaultStorefrontChoice).map(\.problem) == [
                #"price "1.999" cannot be charged exactly in USD, which has 2 decimal places (storefront USA, the default); it is rounded to 2.00"#
            ])
        let korea = StorefrontChoice(storefront: try #require(Storefront.named("KOR")), source: .option("--storefront"))
        #expect(
            catalog.priceWarnings(for: korea).map(\.problem) == [
                #"price "1.999" cannot be charged exactly in KRW, which has no decimal places (storefront KOR, from --storefront); it is rounded to 2"#
            ])
    }

    @Test func offersAndPlansAreCheckedAndAFreeOffersStalePriceIsNot() throws {
        let text = #"""
            {"settings":{"_storefront":"JPN"},"subscriptionGroups":[{"id":"G","name":"G","subscriptions":[
              {"productID":"s","type":"RecurringSubscription","displayPrice":"480","recurringSubscriptionPeriod":"P1M",
               "introductoryOffer":{"paymentMode":"free","displayPrice":"0.99","subscriptionPeriod":"P1W"},
               "adHocOffers":[{"offerID":"half","paymentMode":"payUpFront","displayPrice":"240.5","subscriptionPeriod":"P1M"}],
               "billingPlans":[{"billingPlanType":"MONTHLY","displayPrice":"40.5","commitmentDisplayPrice":"486"}]}]}]}
            """#
        let catalog = try Self.load(text)
        #expect(
            catalog.priceWarnings(for: catalog.defaultStorefrontChoice).map(\.path) == [
                "$.subscriptionGroups[0].subscriptions[0].adHocOffers[0].displayPrice",
                "$.subscriptionGroups[0].subscriptions[0].billingPlans[0].displayPrice",
            ])
    }

    @Test func aSidecarPriceForTheStorefrontIsNotAnEstimate() throws {
        var catalog = try Self.load(Self.japan)
        catalog.prices = PriceTable(file: "Shop.prices.json", prices: ["four": ["JPN": 480]])
        #expect(
            catalog.priceWarnings(for: catalog.defaultStorefrontChoice).map(\.path) == ["$.products[2].displayPrice"])
    }

    @Test func filesThatAreNoCatalogSaySoWordForWord() throws {
        let cases: [(bytes: [UInt8], problem: String)] = [
            ([], "the file is empty; a StoreKit Configuration file holds the JSON that Xcode writes"),
            (
                Array(" \n\t\r\n".utf8),
                "the file is empty (it holds only whitespace); a StoreKit Configuration file holds the JSON that Xcode writes"
            ),
            (
                Array(
                    #"<?xml version="1.0" encoding="UTF-8"?>\#n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\#n<plist version="1.0">"#
                        .utf8),
                "the file is a property list, not JSON; Xcode writes StoreKit Configuration files as JSON (on a Mac, 'plutil -convert json' converts it)"
            ),
            (
                Array("bplist00\u{1}".utf8),
                "the file is a property list, not JSON; Xcode writes StoreKit Configuration files as JSON (on a Mac, 'plutil -convert json' converts it)"
            ),
            (
                Array("<html><body>404</body></html>".utf8),
                "the file is XML, not JSON; Xcode writes StoreKit Configuration files as JSON"
            ),
        ]
        for (bytes, problem) in cases {
            do {
                _ = try StoreKitConfiguration.decode(data: Data(bytes), file: "Empty.storekit")
                Issue.record("\(problem): loaded")
            } catch {
                #expect(error.description == "Empty.storekit: $: \(problem)")
            }
        }
    }
}
