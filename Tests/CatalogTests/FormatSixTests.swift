import Foundation
import Testing

@testable import Catalog

/// Format 6, as Xcode 27 writes a synced file: every member is read into the model or kept as read.
@Suite struct FormatSixTests {
    static let document = """
        {
          "appPolicies" : { "eula" : "Be nice.", "policies" : [ { "locale" : "en_US", "policyText" : "", "policyURL" : "https://example.com/privacy" } ] },
          "identifier" : "6E112E1A",
          "nonRenewingSubscriptions" : [ ],
          "products" : [ ],
          "settings" : { "_applicationInternalID" : "6756204776", "_storefront" : "SGP", "_storeKitErrors" : [ { "enabled" : false, "name" : "Load Products" } ] },
          "subscriptionBundleGroups" : [
            { "id" : "B1", "name" : "Everything", "localizations" : [ { "description" : "All of it", "displayName" : "Everything", "locale" : "en_US" } ],
              "subscriptions" : [ { "displayPrice" : "14.99", "familyShareable" : true, "internalID" : "900", "localizations" : [ { "description" : "All apps", "displayName" : "All Access", "locale" : "en_US" } ],
                "productID" : "com.example.bundle.all", "recurringSubscriptionPeriod" : "P1M", "referenceName" : "All Access", "type" : "SubscriptionBundle",
                "bundledSubscriptions" : [ "com.example.pro.monthly" ] } ] }
          ],
          "subscriptionGroups" : [
            { "id" : "21852566", "localizations" : [ { "description" : "", "displayName" : "Pro", "locale" : "en_US" } ], "name" : "Pro",
              "subscriptions" : [
                { "adHocOffers" : [ ],
                  "billingPlans" : [
                    { "billingPlanType" : "BILLED_UPFRONT", "commitmentDisplayPrice" : "29.99", "displayPrice" : "29.99", "internalID" : "6757140365_BILLED_UPFRONT", "isEnabled" : true },
                    { "billingPlanType" : "MONTHLY", "commitmentDisplayPrice" : "35.88", "displayPrice" : "2.99", "internalID" : "6757140365_MONTHLY", "isEnabled" : false }
                  ],
                  "codeOffers" : [ { "billingPlanType" : "BILLED_UPFRONT", "eligibility" : [ "new", "expired" ], "internalID" : "161c3161-2bf7-4998-9757-d404a2c7fdd8",
                    "isStackable" : true, "numberOfPeriods" : 1, "paymentMode" : "free", "referenceName" : "1 Month Free", "subscriptionPeriod" : "P1M" } ],
                  "displayPrice" : "29.99", "familyShareable" : true, "groupNumber" : 1, "internalID" : "6757140365",
                  "introductoryOffers" : [ { "billingPlanType" : "MONTHLY", "internalID" : "I6", "numberOfPeriods" : 1, "paymentMode" : "free", "subscriptionPeriod" : "P1W" } ],
                  "localizations" : [ { "description" : "Everything, a year", "displayName" : "Pro Yearly", "locale" : "en_US" } ],
                  "productID" : "com.example.pro.yearly", "recurringSubscriptionPeriod" : "P1Y", "referenceName" : "Pro Yearly",
                  "subscriptionGroupID" : "21852566", "type" : "RecurringSubscription", "winbackOffers" : [ ] }
              ] }
          ],
          "subscriptionSuiteGroups" : [ { "id" : "S1", "name" : "Suite", "subscriptions" : [ ] } ],
          "version" : { "major" : 6, "minor" : 3 }
        }
        """

    @Test func aVersion6FileLoadsWithEveryMemberReadOrKept() throws {
        let catalog = try StoreKitConfiguration.decode(data: Data(Self.document.utf8), file: "Store.storekit")
        #expect(catalog.version == StoreKitConfiguration.FormatVersion(major: 6, minor: 3))
        #expect(catalog.warnings.isEmpty)
        #expect(catalog.extra.isEmpty, "every top-level member is modelled: \(catalog.extra.keys)")
        #expect(catalog.products.map(\.id) == ["com.example.pro.yearly"])
        #expect(
            catalog.appPolicies
                == AppPolicies(
                    eula: "Be nice.",
                    policies: [AppPolicies.Policy(locale: "en_US", url: "https://example.com/privacy")]))
        #expect(
            catalog.subscriptionGroups.first?.localizations == [
                SubscriptionGroup.Localization(locale: "en_US", displayName: "Pro", description: "")
            ])

        let product = try #require(catalog.product(id: "com.example.pro.yearly"))
        #expect(product.extra == ["internalID": .string("6757140365")])
        let info = try #require(product.subscription)
        #expect(
            info.billingPlans == [
                StoreKitConfiguration.BillingPlan(
                    type: .billedUpfront, price: Decimal(string: "29.99")!, commitmentPrice: Decimal(string: "29.99"),
                    isEnabled: true, internalID: "6757140365_BILLED_UPFRONT"),
                StoreKitConfiguration.BillingPlan(
                    type: .monthly, price: Decimal(string: "2.99")!, commitmentPrice: Decimal(string: "35.88"),
                    isEnabled: false, internalID: "6757140365_MONTHLY"),
            ])
        #expect(info.introductoryOffers.map(\.billingPlanType) == [.monthly])
        #expect(info.introductoryOffers.map(\.internalID) == ["I6"])
        let code = try #require(info.codeOffers.first)
        #expect(code.id == nil)
        #expect(code.internalID == "161c3161-2bf7-4998-9757-d404a2c7fdd8")
        #expect(code.referenceName == "1 Month Free")
        #expect(code.billingPlanType == .billedUpfront)
        #expect(code.eligibility == ["new", "expired"])
        #expect(code.extra == ["isStackable": .bool(true)])

        #expect(catalog.subscriptionBundleGroups.count == 1)
        let bundle = try #require(catalog.subscriptionBundleGroups.first)
        #expect(bundle.kind == .bundle)
        #expect((bundle.id, bundle.name) == ("B1", "Everything"))
        #expect(bundle.localizations.map(\.description) == ["All of it"])
        #expect(
            bundle.members == [
                SubscriptionBundleGroup.Member(
                    id: "com.example.bundle.all", referenceName: "All Access", type: "SubscriptionBundle",
                    price: Decimal(string: "14.99"), period: SubscriptionPeriod(value: 1, unit: .month),
                    familyShareable: true,
                    localizations: [Localization(locale: "en_US", displayName: "All Access", description: "All apps")],
                    extra: [
                        "internalID": .string("900"),
                        "bundledSubscriptions": .array([.string("com.example.pro.monthly")]),
                    ])
            ])
        #expect(catalog.product(id: "com.example.bundle.all") == nil, "bundles are read, not sold")
        #expect(
            catalog.subscriptionSuiteGroups == [SubscriptionBundleGroup(kind: .suite, id: "S1", name: "Suite")])
    }

    @Test func billingPlansArePricedByTheOneRule() throws {
        let catalog = try StoreKitConfiguration.decode(data: Data(Self.document.utf8), file: "Store.storekit")
        let product = try #require(catalog.product(id: "com.example.pro.yearly"))
        let monthly = try #require(product.subscription?.billingPlans.last)
        let singapore = try #require(Storefront.named("SGP"))
        #expect(
            catalog.price(of: monthly, for: product, in: singapore)
                == Price(amount: Decimal(string: "2.99")!, currencyCode: "SGD"))
        #expect(
            catalog.commitmentPrice(of: monthly, for: product, in: singapore)
                == Price(amount: Decimal(string: "35.88")!, currencyCode: "SGD"))
        // In yen, each amount is rounded on its own: rounding the base price scales nothing.
        let japan = try #require(Storefront.named("JPN"))
        #expect(catalog.price(of: monthly, for: product, in: japan) == Price(amount: 3, currencyCode: "JPY"))
        #expect(catalog.commitmentPrice(of: monthly, for: product, in: japan) == Price(amount: 36, currencyCode: "JPY"))
        // A sidecar price for the product scales its plans as it scales its offers.
        var priced = catalog
        priced.prices = PriceTable(file: "Store.prices.json", prices: ["com.example.pro.yearly": ["JPN": 4_500]])
        #expect(priced.price(of: monthly, for: product, in: japan) == Price(amount: 449, currencyCode: "JPY"))
        // The commitment is the payments it is made of, each as rounded there (not ¥5,384).
        #expect(
            priced.commitmentPrice(of: monthly, for: product, in: japan) == Price(amount: 5_388, currencyCode: "JPY"))
        // A commitment the file does not price as whole payments is scaled on its own.
        let odd = StoreKitConfiguration.BillingPlan(
            type: .monthly, price: Decimal(string: "2.99")!, commitmentPrice: Decimal(string: "35.00")!)
        #expect(priced.commitmentPrice(of: odd, for: product, in: japan) == Price(amount: 5_252, currencyCode: "JPY"))
        let upfront = StoreKitConfiguration.BillingPlan(type: .billedUpfront, price: Decimal(string: "29.99")!)
        #expect(priced.commitmentPrice(of: upfront, for: product, in: japan) == nil)
    }

    @Test func anUnknownBillingPlanTypeIsKeptAsWritten() throws {
        let text = Self.document.replacingOccurrences(
            of: #""MONTHLY", "commitmentDisplayPrice""#, with: #""QUARTERLY", "commitmentDisplayPrice""#)
        let catalog = try StoreKitConfiguration.decode(data: Data(text.utf8), file: "Store.storekit")
        #expect(
            catalog.product(id: "com.example.pro.yearly")?.subscription?.billingPlans.last?.type.rawValue == "QUARTERLY"
        )
    }

    @Test func aBundleMemberSharesTheFilesProductIDs() throws {
        let text = Self.document.replacingOccurrences(of: "com.example.bundle.all", with: "com.example.pro.yearly")
        let error = try #require(Fixtures.decodeError(text, file: "Store.storekit"))
        #expect(
            error.description
                == #"Store.storekit: $.subscriptionBundleGroups[0].subscriptions[0].productID: duplicate product ID "com.example.pro.yearly" (first defined at $.subscriptionGroups[0].subscriptions[0].productID)"#
        )
    }

    @Test func aBadBillingPlanNamesItsPath() throws {
        let text = Self.document.replacingOccurrences(of: #""displayPrice" : "2.99""#, with: #""displayPrice" : 2.99"#)
        #expect(
            Fixtures.decodeError(text, file: "Store.storekit")?.description
                == #"Store.storekit: $.subscriptionGroups[0].subscriptions[0].billingPlans[1].displayPrice: expected a price in a string such as "0.99", found a number"#
        )
    }
}
