import Foundation
import TestSupport
import Testing

/// A sample of the corpus of real `.storekit` files (`LocalAppStoreTests.StoreKitCorpusTests`
/// sells every product of every file in-process) through the built binary: one file of each
/// format version and several storefronts; `products --json` lists what the file holds, every
/// product is bought in a fresh data directory, `restore` brings back what it should, and the
/// files that are not JSON are refused with their message, exit 1.
@Suite(.waitsOnProcesses) struct StoreKitCorpusCommandTests {
    /// Format 1 (no storefront), 2 (China), 3 (Japan), 4 (France), 5 (Russia), 6 (Singapore).
    static let sample = [
        "AnnaShark__InspoQuotes__Configuration.storekit", "chestnutsea__Project-Color-New__Products.storekit",
        "chicktack0321__ITpassport__Products.storekit", "ValentinColombat__UpNews-iOS__StoreKitConfig.storekit",
        "Kanunnikoff__Kamyal-iOS__Store.storekit", "xmliszt__joodle__Store.storekit",
    ]

    @Test(arguments: sample)
    func productsBuyAndRestoreThroughTheCommandLine(_ name: String) throws {
        var cli = try StorefrontCLI(prefix: "sf-corpus")
        cli.catalog = StoreKitCorpus.url(name)
        let catalog = try #require(cli.catalog)
        let root = try #require(
            try JSONSerialization.jsonObject(with: try Data(contentsOf: catalog)) as? [String: Any])
        func ids(_ array: Any?) -> [String] {
            ((array as? [[String: Any]]) ?? []).compactMap { $0["productID"] as? String }
        }
        let declared =
            ids(root["products"]) + ids(root["nonRenewingSubscriptions"])
            + ((root["subscriptionGroups"] as? [[String: Any]]) ?? []).flatMap { ids($0["subscriptions"]) }
        let listed = try cli.array(["products"])
        #expect(Set(listed.compactMap { $0["productID"] as? String }) == Set(declared), "\(name)")
        #expect(listed.count == declared.count)
        var restorable: [String] = []
        for product in listed {
            let id = try #require(product["productID"] as? String)
            _ = try cli.buy(id)
            if ["nonConsumable", "autoRenewable"].contains(product["type"] as? String) { restorable.append(id) }
        }
        let restored = try #require(try cli.object(["restore"])["restored"] as? [[String: Any]])
        let restoredIDs = Set(restored.compactMap { $0["productID"] as? String })
        #expect(restoredIDs.isSubset(of: Set(restorable)), "\(name)")
        #expect(
            Set(listed.filter { $0["type"] as? String == "nonConsumable" }.compactMap { $0["productID"] as? String })
                .isSubset(of: restoredIDs), "\(name)")
    }

    /// Offer codes as Xcode 27 writes them (no `offerID`): `products --json` shows each one's
    /// names, `store issue-codes` takes its reference name or its internal ID, and the redeemed
    /// transaction carries the reference name as its offer ID, as Apple's does.
    @Test func anXcodeCodeOfferIsIssuedByEitherNameAndRedeemed() throws {
        var cli = try StorefrontCLI(prefix: "sf-corpus")
        cli.catalog = StoreKitCorpus.url("xmliszt__joodle__Store.storekit")
        let yearly = "dev.liyuxuan.joodle.pro.yearly"
        let product = try #require(try cli.array(["products"]).first { $0["productID"] as? String == yearly })
        let codes = try #require(product["codeOffers"] as? [[String: Any]])
        #expect(codes.map { $0["referenceName"] as? String } == ["1 Month Free", "1 Year Free", "Mergeek 推广"])
        #expect(codes.allSatisfy { $0["offerID"] is NSNull })
        #expect(codes.first?["internalID"] as? String == "161c3161-2bf7-4998-9757-d404a2c7fdd8")
        #expect(codes.first?["identifier"] as? String == "161c3161-2bf7-4998-9757-d404a2c7fdd8")
        #expect(codes.first?["billingPlanType"] as? String == "BILLED_UPFRONT")
        let plans = try #require(product["billingPlans"] as? [[String: Any]])
        #expect(plans.first?["type"] as? String == "BILLED_UPFRONT" && plans.first?["price"] as? String == "29.98")
        #expect(plans.first?["commitmentPrice"] as? String == "29.98" && plans.first?["isEnabled"] as? Bool == true)

        let byName = try #require(try cli.array(["store", "issue-codes", yearly, "1 Year Free"]).first)
        #expect(byName["offerID"] as? String == "872815b9-2444-43d3-975d-b0a6f37e8dcc")
        let byInternalID = try cli.array(["store", "issue-codes", yearly, "161c3161-2bf7-4998-9757-d404a2c7fdd8"])
        #expect(byInternalID.count == 1)
        let code = try #require(byName["code"] as? String)
        let redeemed = try #require(try cli.object(["redeem", code])["transaction"] as? [String: Any])
        #expect(redeemed["productID"] as? String == yearly && redeemed["offerType"] as? String == "code")
        #expect(redeemed["offerID"] as? String == "1 Year Free" && redeemed["price"] as? String == "0")
        let unknown = try cli.run(["store", "issue-codes", yearly, "2 Years Free"])
        #expect(unknown.status == 1 && unknown.stderr.contains("2 Years Free"), "\(unknown.stderr)")
    }

    /// The file synced in Japan with prices yen cannot charge: it loads, each such price rounded
    /// with one warning line, and sells.
    @Test func aFileWithPricesItsStorefrontCannotChargeLoadsWithAWarningEach() throws {
        var cli = try StorefrontCLI(prefix: "sf-corpus")
        cli.catalog = StoreKitCorpus.url("karirin__itQuiz__StoreKit.storekit")
        let file = try #require(cli.catalog).path
        let result = try cli.run(["products"])
        #expect(result.status == 0)
        let prefix = "storefront: warning: \(file): $.subscriptionGroups[0].subscriptions"
        let suffix = "which has no decimal places (storefront JPN, from settings._storefront)"
        #expect(
            result.stderr == """
                \(prefix)[1].displayPrice: price "4.80" cannot be charged exactly in JPY, \(suffix); it is rounded to 5
                \(prefix)[2].displayPrice: price "9.80" cannot be charged exactly in JPY, \(suffix); it is rounded to 10

                """)
        // Chosen with --storefront, the United States charges them as written: nothing to say.
        #expect(try cli.run(["products", "--storefront", "USA"]).stderr.isEmpty)
    }

    @Test func filesThatAreNotJSONAreRefusedWithTheirMessage() throws {
        for (name, problem) in StoreKitCorpus.notJSON.sorted(by: { $0.key < $1.key }) {
            var cli = try StorefrontCLI(prefix: "sf-corpus", instant: false)
            cli.catalog = StoreKitCorpus.notJSONURL(name)
            let result = try cli.run(["products"])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr
                    == "storefront: cannot load the catalog: \(try #require(cli.catalog).path): $: \(problem)\n")
        }
    }
}
