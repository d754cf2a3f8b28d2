import Foundation
import Testing

@testable import Catalog

/// Every real `.storekit` file loads and agrees with `expected.json` on every field it lists.
@Suite struct ConformanceTests {
    static let fileNames: [String] = (try? Fixtures.storekitFileNames()) ?? []

    @Test func everyFixtureIsListedInExpected() throws {
        let expected = try Fixtures.expected()
        #expect(Self.fileNames.count >= 3)
        #expect(Set(Self.fileNames) == Set(expected.keys))
    }

    @Test(arguments: fileNames)
    func fixtureAgreesWithExpected(_ name: String) throws {
        let expected = try #require(try Fixtures.expected()[name])
        let url = try Fixtures.directory.appendingPathComponent(name)
        let catalog = try StoreKitConfiguration.load(contentsOf: url)

        #expect(catalog.file == url.path)
        #expect(catalog.version?.description == expected["version"] as? String)
        #expect(catalog.prices == nil)

        func ids(_ kind: ProductKind) -> [String] { catalog.products.filter { $0.kind == kind }.map(\.id).sorted() }
        #expect(ids(.consumable) == ((expected["consumable"] as? [String]) ?? ["<missing>"]).sorted())
        #expect(ids(.nonConsumable) == ((expected["nonConsumable"] as? [String]) ?? ["<missing>"]).sorted())
        #expect(ids(.nonRenewing) == ((expected["nonRenewingSubscription"] as? [String]) ?? ["<missing>"]).sorted())

        let groups = try #require(expected["subscriptionGroups"] as? [String: [String]])
        #expect(Set(catalog.subscriptionGroups.map(\.name)) == Set(groups.keys))
        for group in catalog.subscriptionGroups {
            #expect(group.productIDs.sorted() == groups[group.name]?.sorted(), "group \(group.name)")
            for id in group.productIDs {
                let product = try #require(catalog.product(id: id))
                #expect(product.kind == .autoRenewable)
                #expect(product.subscription?.groupID == group.id)
                #expect(product.subscription?.groupName == group.name)
            }
        }
        #expect(ids(.autoRenewable) == groups.values.flatMap { $0 }.sorted())

        let prices = try #require(expected["displayPrices"] as? [String: String])
        #expect(Set(catalog.products.map(\.id)) == Set(prices.keys))
        #expect(catalog.products.count == prices.count)
        for (id, text) in prices {
            #expect(catalog.product(id: id)?.price == Decimal(string: text), "price of \(id)")
        }

        let intro = try #require(expected["introductoryOffers"] as? [String: String])
        let withIntro = catalog.products.filter { $0.subscription?.introductoryOffer != nil }
        #expect(Set(withIntro.map(\.id)) == Set(intro.keys))
        for product in withIntro {
            #expect(
                product.subscription?.introductoryOffer?.paymentMode.rawValue == intro[product.id],
                "intro of \(product.id)")
        }

        let localeCount = try #require(expected["localeCount"] as? [String: Int])
        for (id, count) in localeCount {
            #expect(catalog.product(id: id)?.localizations.count == count, "localizations of \(id)")
        }

        let settings = try #require(expected["settings"] as? [String: Any])
        try checkSettings(catalog.settings, against: settings)
    }

    private func checkSettings(_ settings: CatalogSettings, against expected: [String: Any]) throws {
        for (key, value) in expected {
            switch key {
            case "_storefront": #expect(settings.storefront == value as? String)
            case "_locale": #expect(settings.locale == value as? String)
            case "_timeRate": #expect(settings.timeRate == (value as? NSNumber)?.intValue)
            case "_askToBuyEnabled": #expect(settings.askToBuyEnabled == (value as? NSNumber)?.boolValue)
            case "_failTransactionsEnabled":
                #expect(settings.failTransactionsEnabled == (value as? NSNumber)?.boolValue)
            case "_disableDialogs": #expect(settings.disableDialogs == (value as? NSNumber)?.boolValue)
            case "_billingIssuesEnabled": #expect(settings.billingIssuesEnabled == (value as? NSNumber)?.boolValue)
            case "_billingGracePeriodEnabled":
                #expect(settings.billingGracePeriodEnabled == (value as? NSNumber)?.boolValue)
            case "_renewalBillingIssuesEnabled":
                #expect(settings.renewalBillingIssuesEnabled == (value as? NSNumber)?.boolValue)
            case "_storeKitErrors":
                let entries = try #require(value as? [[String: Any]])
                #expect(settings.storeKitErrors.count == entries.count)
                for (actual, entry) in zip(settings.storeKitErrors, entries) {
                    #expect(actual.name == entry["name"] as? String)
                    #expect(actual.enabled == (entry["enabled"] as? NSNumber)?.boolValue)
                    #expect((actual.current == nil) == (entry["current"] is NSNull || entry["current"] == nil))
                }
            default:
                #expect(settings.extra[key] != nil, "setting \(key) kept")
            }
        }
        // Nothing the file has is dropped: modelled keys plus extra cover what expected lists.
        let modelled = [
            "_storefront", "_locale", "_timeRate", "_askToBuyEnabled", "_failTransactionsEnabled", "_storeKitErrors",
            "_disableDialogs", "_billingIssuesEnabled", "_billingGracePeriodEnabled", "_renewalBillingIssuesEnabled",
        ]
        for key in settings.extra.keys { #expect(!modelled.contains(key)) }
    }

    @Test func offersAndPeriodsOfTheVersion5File() throws {
        let catalog = try StoreKitConfiguration.load(
            contentsOf: try Fixtures.directory.appendingPathComponent("revenuecat-UnitTestsConfiguration.storekit"))
        let monthly = try #require(catalog.product(id: "com.revenuecat.monthly_4.99.1_week_intro")?.subscription)
        #expect(monthly.period == SubscriptionPeriod(value: 1, unit: .month))
        #expect(monthly.groupNumber == 1)
        #expect(
            monthly.introductoryOffers == [
                StoreKitConfiguration.SubscriptionOffer(
                    internalID: "D4FA46D0", paymentMode: .free, period: SubscriptionPeriod(value: 3, unit: .month),
                    numberOfPeriods: 1, price: 0, billingPlanType: .billedUpfront)
            ])
        #expect(
            monthly.promotionalOffers.map(\.id) == [
                "com.revenuecat.monthly_4.99.1_week_intro.year_discount",
                "com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go",
            ])
        #expect(monthly.promotionalOffers.map(\.paymentMode) == [.payUpFront, .payAsYouGo])
        #expect(monthly.promotionalOffers.map(\.price) == [Decimal(string: "40.99"), Decimal(string: "20.15")])
        #expect(monthly.promotionalOffers.map(\.numberOfPeriods) == [1, 2])
        #expect(monthly.promotionalOffers.map(\.period.iso8601) == ["P1Y", "P1M"])
        #expect(monthly.promotionalOffers.first?.referenceName == "year discount")
        let product = try #require(catalog.product(id: "com.revenuecat.monthly_4.99.1_week_intro"))
        #expect(product.extra["billingPlans"] == nil)
        #expect(
            product.subscription?.billingPlans == [
                StoreKitConfiguration.BillingPlan(
                    type: .billedUpfront, price: Decimal(string: "4.99")!, commitmentPrice: Decimal(string: "4.99"),
                    internalID: "12BB6242")
            ])
        #expect(
            product.extra["winbackOffers"] == nil && product.subscription?.winBackOffers == [],
            "winbackOffers is modelled")
        #expect(product.familyShareable)
        #expect(catalog.extra["appPolicies"] == nil)
        #expect(catalog.appPolicies?.policies.map(\.locale) == ["en_US"])
        #expect(catalog.identifier == "B495CDA2")
        // Sections follow the file: nonRenewingSubscriptions, products, then subscription groups.
        #expect(catalog.products.map(\.kind).first == .nonRenewing)
        #expect(catalog.products.last?.id == "com.revenuecat.annual_39.99_no_trial")
    }

    @Test func version3IntroOfferWithPriceAndVersion4NullIntro() throws {
        let v3 = try StoreKitConfiguration.load(
            contentsOf: try Fixtures.directory.appendingPathComponent(
                "revenuecat-IntegrationPurchaseTesterConfiguration.storekit"))
        let shortest = try #require(v3.product(id: "shortest_duration")?.subscription?.introductoryOffer)
        #expect(shortest.period == SubscriptionPeriod(value: 3, unit: .day))
        #expect(shortest.paymentMode == .free)
        #expect(shortest.price == 0, "a free trial: the displayPrice 0.99 the file keeps is stale")
        #expect(v3.extra["subscriptionOffersKeyPair"] != nil)
        let v4 = try StoreKitConfiguration.load(
            contentsOf: try Fixtures.directory.appendingPathComponent("revenuecat-PaywallsTesterProducts.storekit"))
        let monthly = try #require(v4.product(id: "com.revenuecat.simpleapp.monthly"))
        #expect(monthly.localization(for: "es_ES")?.displayName == "Subscripción Mensual")
        #expect(monthly.localization(for: "ar")?.displayName == "اشتراك شهري")
        #expect(monthly.localization(for: "es-MX")?.displayName == "Subscripción Mensual")
        #expect(monthly.localization(for: "ja_JP", fallback: "en_US")?.displayName == "Monthly Subscription")
        #expect(v4.product(id: "com.revenuecat.simpleapp.yearly")?.subscription?.introductoryOffers == [])
        #expect(v4.product(id: "com.revenuecat.simpleapp.yearly")?.subscription?.period.iso8601 == "P1Y")
    }
}
