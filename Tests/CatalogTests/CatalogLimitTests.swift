import Foundation
import Testing

@testable import Catalog

/// Size limits: each refusal names the file, the JSON path, what is too long and the limit.
@Suite struct CatalogLimitTests {
    /// A consumable with these fields and one localization.
    static func product(id: String = "a", referenceName: String = "A", description: String = "d") -> String {
        return #"{"productID":"# + quoted(id) + #","type":"Consumable","displayPrice":"0.99","referenceName":"#
            + quoted(referenceName)
            + #","localizations":[{"locale":"en_US","displayName":"N","description":"# + quoted(description) + "}]}"
    }

    static func quoted(_ text: String) -> String { "\"" + text + "\"" }

    @Test func productIDsUpToAppStoreConnectsLimitAreAccepted() throws {
        let ascii = String(repeating: "p", count: ConfigurationDecoder.maximumProductIDLength)
        #expect(Fixtures.decodeError(BadCatalogTests.catalog(product: Self.product(id: ascii))) == nil)
        // The limit counts characters, not bytes: 100 two-byte characters are accepted.
        let accented = String(repeating: "é", count: ConfigurationDecoder.maximumProductIDLength)
        #expect(Fixtures.decodeError(BadCatalogTests.catalog(product: Self.product(id: accented))) == nil)
        let shorter = String(repeating: "é", count: 60)  // 120 bytes, 60 characters
        #expect(Fixtures.decodeError(BadCatalogTests.catalog(product: Self.product(id: shorter))) == nil)
        let longer = String(repeating: "é", count: ConfigurationDecoder.maximumProductIDLength + 1)
        #expect(
            Fixtures.decodeError(BadCatalogTests.catalog(product: Self.product(id: longer)))?.path
                == "$.products[0].productID")
    }

    @Test func aLongerProductIDIsRefusedAtItsPath() throws {
        let id = String(repeating: "p", count: ConfigurationDecoder.maximumProductIDLength + 1)
        let error = try #require(
            Fixtures.decodeError(BadCatalogTests.catalog(product: Self.product(id: id)), file: "Long.storekit"))
        #expect(error.file == "Long.storekit")
        #expect(error.path == "$.products[0].productID")
        #expect(
            error.problem
                == "the product ID is longer than 100 characters (101 bytes); App Store Connect allows at most 100")
        let inGroup = try #require(
            Fixtures.decodeError(
                BadCatalogTests.catalog(
                    group: BadCatalogTests.subscription(#""recurringSubscriptionPeriod":"P1M""#).replacingOccurrences(
                        of: #""productID":"s""#, with: #""productID":""# + id + "\""))))
        #expect(inGroup.path == "$.subscriptionGroups[0].subscriptions[0].productID")
    }

    @Test func referenceNamesFollowAppStoreConnectsLimit() throws {
        let longest = String(repeating: "r", count: ConfigurationDecoder.maximumReferenceNameLength)
        #expect(Fixtures.decodeError(BadCatalogTests.catalog(product: Self.product(referenceName: longest))) == nil)
        let error = try #require(
            Fixtures.decodeError(BadCatalogTests.catalog(product: Self.product(referenceName: longest + "r"))))
        #expect(error.path == "$.products[0].referenceName")
        #expect(error.problem.contains("longer than 64 characters"))
    }

    @Test func aStringUpToOneMebibyteIsAccepted() throws {
        let description = String(repeating: "d", count: JSONParser.maximumStringBytes)
        let catalog = try StoreKitConfiguration.decode(
            data: Data(BadCatalogTests.catalog(product: Self.product(description: description)).utf8),
            file: "Big.storekit")
        #expect(catalog.products[0].localizations[0].description.utf8.count == JSONParser.maximumStringBytes)
    }

    @Test func aLongerStringIsRefusedAtItsPathWithTheLimit() throws {
        let description = String(repeating: "d", count: JSONParser.maximumStringBytes + 1)
        let error = try #require(
            Fixtures.decodeError(
                BadCatalogTests.catalog(product: Self.product(description: description)), file: "Big.storekit"))
        #expect(error.file == "Big.storekit")
        #expect(error.path == "$.products[0].localizations[0].description")
        #expect(
            error.problem.hasPrefix(
                "a string of 1048577 bytes, longer than the 1048576 bytes (1 MiB) a catalog string may be (line 1, column "
            ))
    }

    @Test func theLimitHoldsForUnmodelledValuesAndKeysToo() throws {
        let huge = String(repeating: "x", count: JSONParser.maximumStringBytes + 1)
        let inExtra = try #require(Fixtures.decodeError(#"{"products":[],"future thing":[1,{"a":""# + huge + #""}]}"#))
        #expect(inExtra.path == #"$["future thing"][1].a"#)
        // A key too long to read is reported at its object.
        let asKey = try #require(Fixtures.decodeError(#"{"settings":{""# + huge + #"":1}}"#))
        #expect(asKey.path == "$.settings")
        #expect(asKey.problem.contains("1 MiB"))
        // Escapes count as written: two bytes of text for each `\n`.
        let escaped = String(repeating: "\\n", count: JSONParser.maximumStringBytes / 2 + 1)
        #expect(Fixtures.decodeError(#"{"x":""# + escaped + #""}"#)?.path == "$.x")
    }

    @Test func theSidecarsShareTheStringLimit() throws {
        let huge = String(repeating: "9", count: JSONParser.maximumStringBytes + 1)
        do {
            _ = try PriceTable.decode(
                data: Data(#"{"version":1,"prices":{"a":{"USA":""#.utf8) + Data(huge.utf8) + Data(#""}}}"#.utf8),
                file: "P.prices.json", productIDs: ["a"])
            Issue.record("expected an error")
        } catch {
            #expect(error.file == "P.prices.json")
            #expect(error.path == "$.prices.a.USA")
        }
    }
}
