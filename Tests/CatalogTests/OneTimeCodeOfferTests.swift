import Foundation
import Testing

@testable import Catalog

/// Offer codes on consumables, non-consumables and non-renewing subscriptions: `codeOffers` on
/// a product outside the subscription groups (Docs/decisions/0055-offer-codes-on-every-product-type.md).
@Suite struct OneTimeCodeOfferTests {
    /// A catalog whose consumable has `offers`, written as the member's JSON.
    static func document(_ offers: String) -> String {
        """
        {
          "nonRenewingSubscriptions" : [
            { "codeOffers" : [ { "displayPrice" : "2.49", "offerID" : "pass.half", "referenceName" : "Half a pass" } ],
              "displayPrice" : "4.99", "familyShareable" : false, "internalID" : "3", "localizations" : [ ],
              "productID" : "com.example.pass", "referenceName" : "Pass", "type" : "NonRenewingSubscription" }
          ],
          "products" : [
            { "codeOffers" : \(offers),
              "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "1", "localizations" : [ ],
              "productID" : "com.example.coins", "referenceName" : "Coins", "type" : "Consumable" },
            { "displayPrice" : "2.99", "familyShareable" : false, "internalID" : "2", "localizations" : [ ],
              "productID" : "com.example.pro", "referenceName" : "Pro", "type" : "NonConsumable" }
          ],
          "settings" : { "_storefront" : "USA" },
          "subscriptionGroups" : [ ],
          "version" : { "major" : 6, "minor" : 3 }
        }
        """
    }

    static func decode(_ offers: String) throws(CatalogError) -> StoreKitConfiguration {
        try StoreKitConfiguration.decode(data: Data(document(offers).utf8), file: "Codes.storekit")
    }

    /// The problem `offers` is refused with, as printed.
    static func refusal(_ offers: String) -> String {
        do throws(CatalogError) {
            _ = try decode(offers)
            return "loaded"
        } catch {
            return error.description
        }
    }

    @Test func eachOneTimeProductReadsItsCodeOffersWithTheirNamesAndPrices() throws {
        let catalog = try Self.decode(
            """
            [ { "displayPrice" : "0.00", "eligibility" : [ "new" ], "internalID" : "C1", "paymentMode" : "free",
                "referenceName" : "Free coins" },
              { "displayPrice" : "0,49", "internalID" : "C2", "paymentMode" : "oneTime", "referenceName" : "Cheap coins" } ]
            """)
        let coins = try #require(catalog.product(id: "com.example.coins"))
        #expect(coins.subscription == nil)
        #expect(
            coins.oneTimeCodeOffers == [
                StoreKitConfiguration.OneTimeOffer(
                    internalID: "C1", referenceName: "Free coins", price: 0,
                    extra: ["eligibility": .array([.string("new")])]),
                StoreKitConfiguration.OneTimeOffer(
                    internalID: "C2", referenceName: "Cheap coins", price: Decimal(string: "0.49")!),
            ])
        #expect(coins.codeOffers.map(\.identifier) == ["C1", "C2"])
        #expect(coins.codeOffer(named: "Cheap coins")?.internalID == "C2")
        #expect(coins.codeOffer(named: "C1")?.transactionOfferID == "Free coins")
        #expect(coins.extra == ["internalID": .string("1")], "codeOffers is modelled")
        #expect(
            catalog.warnings.map(\.description) == [
                #"Codes.storekit: $.products[0].codeOffers[1].displayPrice: price "0,49" has a comma for its decimal point; read as 0.49"#
            ])
        let pass = try #require(catalog.product(id: "com.example.pass"))
        #expect(
            pass.codeOffers == [
                .oneTime(
                    StoreKitConfiguration.OneTimeOffer(
                        id: "pass.half", referenceName: "Half a pass", price: Decimal(string: "2.49")!))
            ])
        #expect(
            catalog.price(of: pass.oneTimeCodeOffers[0], for: pass, in: .unitedStates)
                == Price(amount: Decimal(string: "2.49")!, currencyCode: "USD"))
        #expect(try #require(catalog.product(id: "com.example.pro")).codeOffers.isEmpty)
    }

    @Test func aCodeOfferThatCannotBeUsedIsRefusedNamingFilePathAndProblem() {
        #expect(
            Self.refusal(#"[ { "displayPrice" : "0.49", "paymentMode" : "payAsYouGo", "referenceName" : "X" } ]"#)
                == #"Codes.storekit: $.products[0].codeOffers[0].paymentMode: unknown payment mode "payAsYouGo" for a code offer of a one-time product; expected one of oneTime, free"#
        )
        #expect(
            Self.refusal(#"[ { "internalID" : "C1" } ]"#)
                == "Codes.storekit: $.products[0].codeOffers[0].displayPrice: missing displayPrice for a code offer that is not free"
        )
        #expect(
            Self.refusal(#"[ { "displayPrice" : "0.49" } ]"#)
                == "Codes.storekit: $.products[0].codeOffers[0]: a code offer needs an offerID, an internalID or a referenceName to be addressed by"
        )
        #expect(
            Self.refusal(#"[ "C1" ]"#)
                == "Codes.storekit: $.products[0].codeOffers[0]: expected a code offer (an object), found a string")
        #expect(
            Self.refusal(#"[ { "displayPrice" : "-1", "internalID" : "C1" } ]"#)
                == #"Codes.storekit: $.products[0].codeOffers[0].displayPrice: negative price "-1"; prices must be 0 or more"#
        )
    }
}
