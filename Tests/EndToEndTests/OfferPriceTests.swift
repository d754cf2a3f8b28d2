import Foundation
import TestSupport
import Testing

/// A subscription offer costs one amount in a storefront whose price is not the catalog's
/// (a sidecar price in JPN and DEU, an estimate in KOR): the listing (`products`, table and
/// `--json`), the charge of the first offer period (`buy`, `store charges`, `history`), the
/// discounted renewal (`store renew`), the signed transactions and the renewal info's
/// `renewalPrice` (`signed`, milliunits) all say it. Through the built binary.
@Suite(.waitsOnProcesses) struct OfferPriceTests {
    /// Premium Plus (monthly, 4.99; JPN ¥800, DEU 5,99 € by the Demo's sidecar, KOR ₩5
    /// estimated) given a paid introductory offer: 1.99 a month for two months (the offer's
    /// members as the Demo's format 6 indents them, inside `introductoryOffers`).
    static let paidIntro = """
                      "displayPrice" : "1.99",
                      "internalID" : "239A5279",
                      "numberOfPeriods" : 2,
                      "paymentMode" : "payAsYouGo",
                      "subscriptionPeriod" : "P1M"
        """
    static let freeIntro = """
                      "internalID" : "239A5279",
                      "numberOfPeriods" : 1,
                      "paymentMode" : "free",
                      "subscriptionPeriod" : "P1W"
        """
    /// The Demo's win-back offer on Pro (monthly, 9.99; JPN ¥1,600): 4.99 a month for two months.
    static let winBack = "com.storefront.demo.premium.pro.winback"

    let cli: StorefrontCLI

    /// The Demo catalog and its price sidecar, copied, Plus's free week made the paid offer.
    init() throws {
        var cli = try StorefrontCLI(prefix: "sf-offer-price")
        let demo = try String(contentsOf: DemoCatalog.url, encoding: .utf8)
        try #require(
            demo.components(separatedBy: Self.freeIntro).count == 2,
            "Plus's introductory offer is where the test expects it")
        let catalog = cli.scratch.url("Offers.storekit")
        try demo.replacingOccurrences(of: Self.freeIntro, with: Self.paidIntro).write(
            to: catalog, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            at: Repository.url("Catalogs/Demo.prices.json"), to: cli.scratch.url("Offers.prices.json"))
        cli.catalog = catalog
        self.cli = cli
    }

    /// `args… --storefront CODE --json` as an object or an array.
    func object(_ args: [String], _ code: String) throws -> [String: Any] {
        try cli.object(args + ["--storefront", code])
    }
    func array(_ args: [String], _ code: String) throws -> [[String: Any]] {
        try cli.array(args + ["--storefront", code])
    }

    func product(_ id: String, in code: String) throws -> [String: Any] {
        let products = try array(["products"], code)
        return try #require(products.first { $0["productID"] as? String == id }, "\(id) in \(code)")
    }

    /// The payload of every signed transaction by transaction ID, and of every renewal info by
    /// original transaction ID (`signed --json`, decoded without checking: SignedCommandTests do).
    func signed() throws -> (transactions: [String: [String: Any]], renewals: [String: [String: Any]]) {
        let document = try cli.object(["signed"])
        var transactions: [String: [String: Any]] = [:]
        for item in try #require(document["transactions"] as? [[String: Any]]) {
            let id = try #require(item["transactionId"] as? String)
            transactions[id] = try EstimatedPriceTests.payload(of: try #require(item["signedTransaction"] as? String))
        }
        var renewals: [String: [String: Any]] = [:]
        for item in try #require(document["renewalInfo"] as? [[String: Any]]) {
            let id = try #require(item["originalTransactionId"] as? String)
            renewals[id] = try EstimatedPriceTests.payload(of: try #require(item["signedRenewalInfo"] as? String))
        }
        return (transactions, renewals)
    }

    /// A price in Apple's milliunits, from its decimal text.
    static func milliunits(_ text: String) throws -> Int {
        let amount = try #require(Decimal(string: text)) * 1000
        return NSDecimalNumber(decimal: amount).intValue
    }

    /// The transaction `id` as `store charges --json` and `history --json` list it.
    func listed(_ id: String, in code: String) throws -> (charge: [String: Any], history: [String: Any]) {
        let charges = try array(["store", "charges"], code)
        let charge = try #require(charges.first { $0["transactionID"] as? String == id }, "charge \(id)")
        let transactions = try #require(try object(["history"], code)["transactions"] as? [[String: Any]])
        let history = try #require(transactions.first { $0["transactionID"] as? String == id }, "history \(id)")
        return (charge, history)
    }

    @Test(arguments: [
        // 1.99 × 800 / 4.99 = 319.03… yen; 1.99 × 5.99 / 4.99 = 2.3888… euros; 4.99 is ₩5
        // estimated, so 1.99 × 5 / 4.99 = 1.99… is ₩2.
        ("JPN", "JPY", "319", "¥319", "800"), ("DEU", "EUR", "2.39", "2,39\u{A0}€", "5.99"),
        ("KOR", "KRW", "2", "₩2", "5"),
    ])
    func anIntroductoryOfferIsListedChargedRenewedAndSignedAtOnePrice(
        _ code: String, _ currency: String, _ offer: String, _ shown: String, _ full: String
    ) throws {
        let offerMilliunits = try Self.milliunits(offer)
        let fullMilliunits = try Self.milliunits(full)
        let plus = try product(DemoCatalog.plus, in: code)
        #expect(plus["price"] as? String == full)
        let intro = try #require(plus["introductoryOffer"] as? [String: Any])
        #expect(intro["paymentMode"] as? String == "payAsYouGo")
        #expect(intro["price"] as? String == offer, "the listed offer price")
        #expect(intro["displayPrice"] as? String == shown)
        let table = try cli.run(["products", "--storefront", code])
        let row = try #require(
            table.stdout.split(separator: "\n").first { $0.hasPrefix(DemoCatalog.plus + " ") }, "\(table.stderr)")
        #expect(row.contains("intro offer \(shown)/month for 2 months"), "\(row)")

        // The first offer period is charged the listed price, and signed with it.
        let bought = try #require(try object(["buy", DemoCatalog.plus], code)["transaction"] as? [String: Any])
        let first = try #require(bought["transactionID"] as? String)
        #expect(bought["offerType"] as? String == "introductory")
        #expect(bought["price"] as? String == offer && bought["currencyCode"] as? String == currency, "\(bought)")
        let (charge, history) = try listed(first, in: code)
        #expect(charge["price"] as? String == offer, "store charges: \(charge)")
        #expect(history["price"] as? String == offer, "history: \(history)")
        var jws = try signed()
        #expect(jws.transactions[first]?["price"] as? Int == offerMilliunits)
        #expect(jws.transactions[first]?["currency"] as? String == currency)
        // The second period is the offer's too: renewal info says so at the same price.
        #expect(jws.renewals[first]?["renewalPrice"] as? Int == offerMilliunits, "\(jws.renewals[first] ?? [:])")
        #expect(jws.renewals[first]?["offerType"] as? Int == 1)
        #expect(jws.renewals[first]?["currency"] as? String == currency)

        // The discounted renewal is charged what renewal info announced.
        let renewal = try #require(try object(["store", "renew", first], code)["transaction"] as? [String: Any])
        let second = try #require(renewal["transactionID"] as? String)
        #expect(renewal["offerType"] as? String == "introductory")
        #expect(renewal["price"] as? String == offer, "the discounted renewal: \(renewal)")
        #expect(try listed(second, in: code).charge["price"] as? String == offer)
        jws = try signed()
        #expect(jws.transactions[second]?["price"] as? Int == offerMilliunits)
        // The offer is spent: the next period is at the product's price.
        #expect(jws.renewals[first]?["renewalPrice"] as? Int == fullMilliunits)
        #expect(jws.renewals[first]?["offerType"] == nil)
    }

    @Test(arguments: [
        // 4.99 × 1600 / 9.99 = 799.19… yen; 9.99 is ₩10 estimated, so 4.99 × 10 / 9.99 is ₩5.
        ("JPN", "JPY", "799", "¥799"), ("KOR", "KRW", "5", "₩5"),
    ])
    func aWinBackOfferIsListedChargedRenewedAndSignedAtOnePrice(
        _ code: String, _ currency: String, _ offer: String, _ shown: String
    ) throws {
        let offerMilliunits = try Self.milliunits(offer)
        let pro = try product(DemoCatalog.pro, in: code)
        let listed = (pro["winBackOffers"] as? [[String: Any]])?.first { $0["offerID"] as? String == Self.winBack }
        #expect(listed?["price"] as? String == offer && listed?["displayPrice"] as? String == shown, "\(pro)")

        let lapsed = try #require(try object(["buy", DemoCatalog.basic], code)["transactionID"] as? String)
        #expect(try cli.run(["store", "expire", lapsed, "--storefront", code]).status == 0)
        let back = try #require(
            try object(["buy", DemoCatalog.pro, "--win-back", Self.winBack], code)["transaction"] as? [String: Any])
        let id = try #require(back["transactionID"] as? String)
        #expect(back["offerType"] as? String == "winBack")
        #expect(back["price"] as? String == offer && back["currencyCode"] as? String == currency, "\(back)")
        #expect(try self.listed(id, in: code).charge["price"] as? String == offer)
        let original = try #require(back["originalTransactionID"] as? String)
        let jws = try signed()
        #expect(jws.transactions[id]?["price"] as? Int == offerMilliunits)
        #expect(jws.transactions[id]?["offerType"] as? Int == 4)
        // Its second month is the win-back's as well, and renewal info names it.
        let renewalInfo = try #require(jws.renewals[original])
        #expect(renewalInfo["renewalPrice"] as? Int == offerMilliunits, "\(renewalInfo)")
        #expect(
            renewalInfo["offerType"] as? Int == 4 && renewalInfo["offerIdentifier"] as? String == Self.winBack,
            "\(renewalInfo)")

        let renewal = try #require(try object(["store", "renew", original], code)["transaction"] as? [String: Any])
        #expect(renewal["offerType"] as? String == "winBack" && renewal["price"] as? String == offer, "\(renewal)")
    }
}
