import Foundation
import TestSupport
import Testing

/// A storefront the price sidecar does not cover sells at the catalog's price read in its
/// currency, rounded to that currency's minor units: the listing, the charge and the signed
/// transaction all say the same amount. Through the built binary.
@Suite(.waitsOnProcesses) struct EstimatedPriceTests {
    let cli: StorefrontCLI

    init() throws { cli = try StorefrontCLI(prefix: "sf-estimate") }

    @Test func aZeroDecimalCurrencyListsChargesAndSignsWholeWon() throws {
        let products = try cli.array(["products", "--storefront", "KOR"])
        let coins = try #require(products.first { $0["productID"] as? String == DemoCatalog.coins })
        #expect(coins["currencyCode"] as? String == "KRW")
        #expect(coins["price"] as? String == "1", "the catalog's 0.99 read in won, rounded to whole won")
        #expect(coins["displayPrice"] as? String == "₩1")
        for product in products {
            let price = try #require(product["price"] as? String)
            #expect(!price.contains("."), "\(product["productID"] ?? "?") lists \(price) won")
        }

        let bought = try cli.object(["buy", DemoCatalog.coins, "--storefront", "KOR"])
        let transaction = try #require(bought["transaction"] as? [String: Any])
        #expect(transaction["price"] as? String == "1")
        #expect(transaction["currencyCode"] as? String == "KRW")

        let signed = try #require(try cli.object(["signed"])["transactions"] as? [[String: Any]])
        let jws = try #require(signed.first?["signedTransaction"] as? String)
        let payload = try Self.payload(of: jws)
        #expect(payload["price"] as? Int == 1000, "milliunits of 1 won")
        #expect(payload["currency"] as? String == "KRW")
    }

    /// The JWS's payload, decoded without checking it (ReceiptCommandTests check signatures).
    static func payload(of jws: String) throws -> [String: Any] {
        var part = String(jws.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(
            of: "_", with: "/")
        part += String(repeating: "=", count: (4 - part.count % 4) % 4)
        let data = try #require(Data(base64Encoded: part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
