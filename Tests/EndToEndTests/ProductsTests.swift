import Foundation
import TestSupport
import Testing

/// `storefront products`, run as the real binary against the bundled Demo catalog.
@Suite(.waitsOnProcesses) struct ProductsTests {
    static let packageRoot = Repository.root
    static let demoSidecar = packageRoot.appendingPathComponent("Catalogs/Demo.prices.json")

    func run(_ args: [String], cwd: URL = packageRoot) throws -> StorefrontProcess.Result {
        try StorefrontProcess.run(args, cwd: cwd)
    }

    func jsonArray(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    /// The sidecar, read with Foundation's JSON reader: product ID → storefront → price text.
    func sidecarPrices() throws -> [String: [String: String]] {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.demoSidecar)) as? [String: Any])
        return try #require(root["prices"] as? [String: [String: String]])
    }

    @Test func tableForTheUnitedStatesByDefault() throws {
        let result = try run(["products"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("19 products · storefront USA (United States, USD) · locale en_US · ") == true)
        let rows = lines.filter { $0.hasPrefix("com.storefront.demo.") }
        #expect(rows.count == 19)
        let coins = try #require(rows.first { $0.hasPrefix("com.storefront.demo.coins.100 ") })
        #expect(coins.contains("consumable"))
        #expect(coins.contains("100 Coins"))
        #expect(coins.hasSuffix("$0.99"))
        let pro = try #require(rows.first { $0.hasPrefix("com.storefront.demo.premium.pro.monthly ") })
        #expect(pro.contains("$9.99  every month, level 1, 1 week free"))
    }

    @Test func japanShowsYenWithoutDecimalsAndJapaneseNames() throws {
        for args in [["products", "--storefront", "JPN"], ["--storefront=JPN", "--locale=ja_JP", "products"]] {
            let result = try run(args)
            #expect(result.status == 0, "\(result.stderr)")
            let coins = try #require(
                result.stdout.split(separator: "\n").first { $0.hasPrefix("com.storefront.demo.coins.1200 ") })
            #expect(coins.contains("コイン1,200枚"))
            #expect(coins.hasSuffix("¥1,600") || coins.hasSuffix("￥1,600"))
            #expect(!result.stdout.contains("¥160."))
        }
    }

    @Test func jsonIsTheDocumentedContractAndAgreesWithTheSidecar() throws {
        let sidecar = try sidecarPrices()
        for (storefront, locale, currency) in [
            ("USA", "en_US", "USD"), ("JPN", "ja_JP", "JPY"), ("DEU", "de_DE", "EUR"), ("BRA", "pt_BR", "BRL"),
            ("CHN", "zh_CN", "CNY"), ("FRA", "fr_FR", "EUR"), ("GBR", "en_GB", "GBP"), ("IND", "en_IN", "INR"),
        ] {
            let result = try run(["products", "--json", "--storefront", storefront])
            #expect(result.status == 0, "\(result.stderr)")
            let products = try jsonArray(result.stdout)
            #expect(products.count == 19)
            for product in products {
                let id = try #require(product["productID"] as? String)
                for key in [
                    "type", "referenceName", "displayName", "description", "price", "displayPrice", "currencyCode",
                    "storefront",
                ] {
                    #expect(product[key] is String, "\(id) \(key)")
                }
                #expect(product["currencyCode"] as? String == currency)
                #expect(product["storefront"] as? String == storefront)
                let price = try #require(product["price"] as? String)
                let expected = try #require(sidecar[id]?[storefront])
                #expect(Decimal(string: price) == Decimal(string: expected), "\(id) in \(storefront)")
                #expect(price.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") })
                #expect(!((product["displayName"] as? String) ?? "").isEmpty)
                // The Demo has no British or Indian English; those fall back to en_US.
                #expect(product["locale"] as? String == (locale.hasPrefix("en_") ? "en_US" : locale))
                let isSubscription = product["type"] as? String == "autoRenewable"
                #expect((product["subscriptionPeriod"] != nil) == isSubscription, "\(id)")
            }
        }
    }

    @Test func jsonFieldsForASubscription() throws {
        let result = try run(["products", "--json", "--storefront", "JPN"])
        let products = try jsonArray(result.stdout)
        let pro = try #require(
            products.first { $0["productID"] as? String == "com.storefront.demo.premium.pro.monthly" })
        #expect(pro["type"] as? String == "autoRenewable")
        #expect(pro["displayName"] as? String == "プロ（月額）")
        #expect(pro["price"] as? String == "1600")
        #expect(pro["subscriptionGroup"] as? String == "Storefront Premium")
        #expect(pro["subscriptionGroupDisplayName"] as? String == "Storefront プレミアム")
        #expect((pro["subscriptionGroupLevel"] as? NSNumber)?.intValue == 1)
        #expect(pro["subscriptionPeriod"] as? String == "P1M")
        let intro = try #require(pro["introductoryOffer"] as? [String: Any])
        #expect(intro["paymentMode"] as? String == "free")
        #expect(intro["period"] as? String == "P1W")
        #expect(intro["price"] as? String == "0")
        let promotional = try #require(pro["promotionalOffers"] as? [[String: Any]])
        #expect(promotional.first?["offerID"] as? String == "com.storefront.demo.premium.pro.comeback")
        let coins = try #require(products.first { $0["productID"] as? String == "com.storefront.demo.coins.100" })
        #expect(coins["type"] as? String == "consumable")
        #expect(coins["subscriptionPeriod"] == nil)
    }

    static func wholeYen(_ amount: Decimal) -> Decimal {
        var amount = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &amount, 0, .plain)
        return rounded
    }

    /// A one-time product's code offers, with every name and the price scaled as the product's
    /// is in the storefront (the sidecar's yen over the catalog's dollars, rounded to whole yen).
    @Test func jsonCodeOffersOfOneTimeProducts() throws {
        let yenText = try #require(try sidecarPrices()[DemoCatalog.removeAds]?["JPN"])
        let yen = try #require(Decimal(string: yenText))
        for (storefront, expected, shown) in [
            ("USA", Decimal(string: "1.99")!, "$1.99"),
            ("JPN", Self.wholeYen(Decimal(string: "1.99")! * yen / Decimal(string: "3.99")!), nil),
        ] {
            let products = try jsonArray(try run(["products", "--json", "--storefront", storefront]).stdout)
            let removeAds = try #require(products.first { $0["productID"] as? String == DemoCatalog.removeAds })
            let offers = try #require(removeAds["codeOffers"] as? [[String: Any]])
            #expect(offers.count == 1)
            let offer = try #require(offers.first)
            #expect(offer["offerID"] is NSNull && offer["internalID"] as? String == DemoCatalog.removeAdsCodeOffer)
            #expect(offer["referenceName"] as? String == "Code: Remove ads half price")
            #expect(offer["identifier"] as? String == DemoCatalog.removeAdsCodeOffer)
            #expect(offer["paymentMode"] as? String == "oneTime")
            #expect(Decimal(string: offer["price"] as? String ?? "") == expected, "\(storefront): \(offer)")
            if let shown { #expect(offer["displayPrice"] as? String == shown) }
            let coins = try #require(products.first { $0["productID"] as? String == DemoCatalog.coins })
            #expect((coins["codeOffers"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func missingCatalogExitsOneNamingTheFile() throws {
        let scratch = try TemporaryDirectory(prefix: "e2e")
        let dir = scratch.url
        let result = try run(["products", "--catalog", "Missing.storekit"], cwd: dir)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "storefront: cannot load the catalog: there is no file \(dir.path)/Missing.storekit (the catalog, relative to the current directory); give your .storekit file with --catalog PATH\n"
        )
    }

    @Test func malformedCatalogExitsOneWithFileAndJSONPath() throws {
        let scratch = try TemporaryDirectory(prefix: "e2e")
        let dir = scratch.url
        let bad = dir.appendingPathComponent("Bad.storekit")
        try Data(#"{"products":[{"productID":"x","type":"Consumable","displayPrice":"-1"}]}"#.utf8).write(to: bad)
        let result = try run(["products", "--catalog", bad.path, "--json"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("\(bad.path): $.products[0].displayPrice: negative price \"-1\""))
        try Data("{ not json".utf8).write(to: bad)
        let notJSON = try run(["products", "--catalog", bad.path])
        #expect(notJSON.status == 1)
        #expect(notJSON.stderr.contains("\(bad.path): $: not valid JSON"))
    }

    @Test func usageErrorsExitTwo() throws {
        let unknownOption = try run(["products", "--colour"])
        #expect(unknownOption.status == 2)
        #expect(unknownOption.stderr.contains("unknown option '--colour'"))
        let unknownStorefront = try run(["products", "--storefront", "XYZ"])
        #expect(unknownStorefront.status == 2)
        #expect(unknownStorefront.stderr.contains("unknown storefront 'XYZ'"))
        let unknownCommand = try run(["buy"])
        #expect(unknownCommand.status == 2)
    }

    @Test func dataDirectoryIsAcceptedButNotCreated() throws {
        let scratch = try TemporaryDirectory(prefix: "e2e")
        let dir = scratch.url("data")
        let result = try run(["products", "--data-dir", dir.path, "--locale", "fr_FR", "--storefront", "FRA"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("100 pièces"))
        #expect(result.stdout.contains("0,99\u{A0}€"))
        #expect(!FileManager.default.fileExists(atPath: dir.path))
    }

    @Test func helpDocumentsEverything() throws {
        let help = try run(["--help"])
        #expect(help.status == 0)
        for option in ["--catalog", "--data-dir", "--storefront", "--locale", "--json", "--help"] {
            #expect(help.stdout.contains(option))
        }
        let products = try run(["help", "products"])
        #expect(products.status == 0)
        #expect(products.stdout.hasPrefix("USAGE: storefront products"))
    }
}
