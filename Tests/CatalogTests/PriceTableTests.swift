import Foundation
import TestSupport
import Testing

@testable import Catalog

@Suite struct PriceTableTests {
    static let catalogJSON =
        #"{"products":[{"productID":"coins","type":"Consumable","displayPrice":"0.99","localizations":[{"locale":"en_US","displayName":"Coins","description":""}]},{"productID":"pro","type":"NonConsumable","displayPrice":"4.99"}]}"#

    func withCatalog(sidecar: String?, _ body: (URL) throws -> Void) throws {
        let scratch = try TemporaryDirectory(prefix: "catalog-tests")
        let dir = scratch.url
        let url = dir.appendingPathComponent("Shop.storekit")
        try Data(Self.catalogJSON.utf8).write(to: url)
        if let sidecar { try Data(sidecar.utf8).write(to: dir.appendingPathComponent("Shop.prices.json")) }
        try body(url)
    }

    @Test func sidecarPricesWinAndTheRestFallBack() throws {
        try withCatalog(sidecar: #"{"version":1,"prices":{"coins":{"JPN":"160","DEU":"1.19","USA":"0.99"}}}"#) { url in
            let catalog = try StoreKitConfiguration.load(contentsOf: url)
            #expect(
                catalog.prices?.file == url.deletingLastPathComponent().appendingPathComponent("Shop.prices.json").path)
            let coins = try #require(catalog.product(id: "coins"))
            let pro = try #require(catalog.product(id: "pro"))
            let japan = try #require(Storefront.named("JPN"))
            let germany = try #require(Storefront.named("DEU"))
            #expect(catalog.price(for: coins, in: japan) == Price(amount: 160, currencyCode: "JPY"))
            #expect(catalog.price(for: coins, in: germany).decimalString == "1.19")
            #expect(catalog.price(for: coins, in: germany).currencyCode == "EUR")
            #expect(
                catalog.price(for: pro, in: japan) == Price(amount: 5, currencyCode: "JPY"), "4.99 read in yen, rounded"
            )
            #expect(catalog.price(for: coins, in: try #require(Storefront.named("GBR"))).decimalString == "0.99")
        }
    }

    @Test func aSidecarThatIsADirectoryIsNamedAsThePriceFile() throws {
        try withCatalog(sidecar: nil) { url in
            let sidecar = url.deletingLastPathComponent().appendingPathComponent("Shop.prices.json")
            try FileManager.default.createDirectory(at: sidecar, withIntermediateDirectories: false)
            let error = #expect(throws: CatalogError.self) { try StoreKitConfiguration.load(contentsOf: url) }
            #expect(error?.file == sidecar.path)
            #expect(error?.problem == "is a directory, expected a price sidecar (NAME.prices.json)")
        }
    }

    @Test func noSidecarMeansNoTable() throws {
        try withCatalog(sidecar: nil) { url in
            let catalog = try StoreKitConfiguration.load(contentsOf: url)
            #expect(catalog.prices == nil)
        }
    }

    @Test(arguments: [
        (#"{"prices":{}}"#, "$.version", "missing version (expected 1)"),
        (#"{"version":2,"prices":{}}"#, "$.version", "unsupported sidecar version 2; this build reads version 1"),
        (#"{"version":1}"#, "$.prices", "missing prices"),
        (#"{"version":1,"prices":{"coinz":{"USA":"0.99"}}}"#, "$.prices.coinz", #"no product "coinz" in the catalog"#),
        (#"{"version":1,"prices":{"coins":{"XYZ":"0.99"}}}"#, "$.prices.coins.XYZ", #"unknown storefront "XYZ""#),
        (#"{"version":1,"prices":{"coins":{"usa":"0.99"}}}"#, "$.prices.coins.usa", #"unknown storefront "usa""#),
        (
            #"{"version":1,"prices":{"coins":{"JPN":"160.5"}}}"#, "$.prices.coins.JPN",
            #"price "160.5" has more decimals than JPY allows (0)"#
        ),
        (#"{"version":1,"prices":{"coins":{"USA":"-1"}}}"#, "$.prices.coins.USA", #"negative price "-1""#),
        (#"{"version":1,"prices":{"coins":{"USA":0.99}}}"#, "$.prices.coins.USA", "found a number"),
        (#"{"version":1,"prices":{"coins":["0.99"]}}"#, "$.prices.coins", "found an array"),
        ("not json", "$", "not valid JSON"),
    ])
    func badSidecarsNameTheSidecarFile(_ sidecar: String, _ path: String, _ problem: String) throws {
        try withCatalog(sidecar: sidecar) { url in
            do {
                _ = try StoreKitConfiguration.load(contentsOf: url)
                Issue.record("expected an error")
            } catch let error as CatalogError {
                #expect(error.file.hasSuffix("Shop.prices.json"))
                #expect(error.path == path)
                #expect(error.problem.contains(problem), "\(error.problem)")
            }
        }
    }
}
