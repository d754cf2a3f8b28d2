import Foundation
import Testing

@testable import Catalog

/// Older layouts (format 2: no `codeOffers`, no `winbackOffers`, few settings) load too, and
/// keys the catalog does not model are kept.
@Suite struct FormatVersionTests {
    static let version2 = """
        {
          "identifier" : "0A1B2C3D",
          "nonRenewingSubscriptions" : [ ],
          "products" : [
            { "displayPrice" : "2.99", "familyShareable" : false, "internalID" : "11111111",
              "localizations" : [ { "description" : "Unlock it all", "displayName" : "Full Version", "locale" : "en_US" } ],
              "productID" : "com.example.full", "referenceName" : "Full", "type" : "NonConsumable" }
          ],
          "settings" : { "_applicationInternalID" : "1234567890", "_developerTeamID" : "ABCDE12345", "_timeRate" : 3 },
          "subscriptionGroups" : [
            { "id" : "22222222", "localizations" : [ { "displayName" : "Pro", "customAppName" : "Example", "locale" : "en_US" } ],
              "name" : "Pro", "subscriptions" : [
                { "adHocOffers" : [ ], "displayPrice" : "0.99", "familyShareable" : false, "groupNumber" : 2,
                  "internalID" : "33333333", "introductoryOffer" : { "internalID" : "44444444", "numberOfPeriods" : 3,
                  "displayPrice" : "0.49", "paymentMode" : "payAsYouGo", "subscriptionPeriod" : "P1W" },
                  "localizations" : [ ], "productID" : "com.example.pro.weekly", "recurringSubscriptionPeriod" : "P1W",
                  "referenceName" : "Weekly", "subscriptionGroupID" : "22222222", "type" : "RecurringSubscription" } ] }
          ],
          "version" : { "major" : 2, "minor" : 0 }
        }
        """

    @Test func version2Loads() throws {
        let catalog = try StoreKitConfiguration.decode(data: Data(Self.version2.utf8), file: "Old.storekit")
        #expect(catalog.version == StoreKitConfiguration.FormatVersion(major: 2, minor: 0))
        #expect(catalog.version?.description == "2.0")
        #expect(try #require(catalog.version) < StoreKitConfiguration.FormatVersion(major: 5, minor: 0))
        #expect(catalog.products.map(\.id) == ["com.example.full", "com.example.pro.weekly"])
        let weekly = try #require(catalog.product(id: "com.example.pro.weekly")?.subscription)
        #expect(weekly.groupNumber == 2)
        #expect(weekly.codeOffers.isEmpty)
        let intro = try #require(weekly.introductoryOffer)
        #expect(intro.paymentMode == .payAsYouGo)
        #expect(intro.numberOfPeriods == 3)
        #expect(intro.price == Decimal(string: "0.49"))
        #expect(intro.internalID == "44444444")
        #expect(intro.extra.isEmpty)
        #expect(catalog.settings.timeRate == 3)
        #expect(catalog.settings.storefront == nil)
        #expect(
            catalog.settings.extra == [
                "_applicationInternalID": .string("1234567890"), "_developerTeamID": .string("ABCDE12345"),
            ])
        #expect(
            catalog.subscriptionGroups.first?.localizations == [
                SubscriptionGroup.Localization(locale: "en_US", displayName: "Pro", customAppName: "Example")
            ])
        #expect(catalog.defaultStorefront == Storefront.unitedStates)
        #expect(catalog.product(id: "com.example.full")?.localization(for: "fr_FR")?.displayName == "Full Version")
    }

    @Test func missingVersionAndUnknownTopLevelKeysAreKept() throws {
        let catalog = try StoreKitConfiguration.decode(
            data: Data(#"{"products":[],"futureThing":{"x":[1,true,null]}}"#.utf8), file: "f")
        #expect(catalog.version == nil)
        #expect(catalog.products.isEmpty)
        #expect(catalog.extra["futureThing"] == .object(["x": .array([.number("1"), .bool(true), .null])]))
        #expect(catalog.extra["futureThing"]?["x"] == .array([.number("1"), .bool(true), .null]))
        #expect(JSONValue.null.typeDescription == "null")
    }

    @Test func badVersionIsAnError() {
        #expect(Fixtures.decodeError(#"{"version":{"minor":1}}"#)?.path == "$.version.major")
        #expect(
            Fixtures.decodeError(#"{"version":"5.0"}"#)?.problem
                == "expected a format version (an object), found a string")
    }

    @Test func codeOffersWithEligibility() throws {
        let json = BadCatalogTests.catalog(
            group: BadCatalogTests.subscription(
                #""recurringSubscriptionPeriod":"P1Y","codeOffers":[{"displayPrice":"9.99","eligibility":["new","expired"],"internalID":"C1","isStackable":true,"numberOfPeriods":1,"paymentMode":"payUpFront","referenceName":"Spring code","subscriptionPeriod":"P6M"}]"#
            ))
        let catalog = try StoreKitConfiguration.decode(data: Data(json.utf8), file: "c.storekit")
        let offer = try #require(catalog.product(id: "s")?.subscription?.codeOffers.first)
        #expect(offer.eligibility == ["new", "expired"])
        #expect(offer.paymentMode == .payUpFront)
        #expect(offer.period == SubscriptionPeriod(value: 6, unit: .month))
        #expect(offer.price == Decimal(string: "9.99"))
        #expect(offer.referenceName == "Spring code")
        #expect(offer.internalID == "C1")
        #expect(offer.id == nil)
        #expect(offer.extra == ["isStackable": .bool(true)])
        let bad = BadCatalogTests.catalog(
            group: BadCatalogTests.subscription(
                #""recurringSubscriptionPeriod":"P1Y","codeOffers":[{"eligibility":["new",1],"paymentMode":"free","subscriptionPeriod":"P1M"}]"#
            ))
        let error = try #require(Fixtures.decodeError(bad))
        #expect(error.path == "$.subscriptionGroups[0].subscriptions[0].codeOffers[0].eligibility[1]")
        #expect(error.problem == "expected a string, found a number")
    }
}
