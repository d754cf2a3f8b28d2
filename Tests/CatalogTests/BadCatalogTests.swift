import Foundation
import TestSupport
import Testing

@testable import Catalog

/// Each kind of bad catalog gives exactly one error naming the file, the JSON path and the problem.
@Suite struct BadCatalogTests {
    /// A minimal valid catalog with `product` as its only product, and `group` as its only subscription group.
    static func catalog(
        product: String = #"{"productID":"a","type":"Consumable","displayPrice":"0.99","referenceName":"A"}"#,
        group: String = ""
    ) -> String {
        let groups = group.isEmpty ? "[]" : "[\(group)]"
        return #"{"version":{"major":4,"minor":0},"products":["# + product + #"],"subscriptionGroups":"# + groups + "}"
    }

    static func subscription(_ fields: String) -> String {
        #"{"id":"G1","name":"Premium","subscriptions":[{"productID":"s","type":"RecurringSubscription","displayPrice":"4.99","groupNumber":1,"#
            + fields + "}]}"
    }

    @Test func theValidBaseDecodes() throws {
        #expect(Fixtures.decodeError(Self.catalog()) == nil)
        #expect(
            Fixtures.decodeError(Self.catalog(group: Self.subscription(#""recurringSubscriptionPeriod":"P1M""#))) == nil
        )
    }

    @Test func notJSON() throws {
        let error = try #require(Fixtures.decodeError("{\n  \"products\": [ oops ]\n}", file: "Broken.storekit"))
        #expect(error.file == "Broken.storekit")
        #expect(error.path == "$")
        #expect(error.problem.contains("not valid JSON"))
        #expect(error.problem.contains("line 2, column 17"))
    }

    @Test func truncatedFile() throws {
        #expect(
            Fixtures.decodeError(#"{"products":[{"productID":"a""#)?.problem.contains("unexpected end of file") == true)
    }

    @Test func topLevelIsNotAnObject() throws {
        let error = try #require(Fixtures.decodeError("[1, 2]"))
        #expect(error.path == "$")
        #expect(error.problem == "expected a StoreKit Configuration (an object), found an array")
    }

    @Test func wrongTypeOfSection() throws {
        let error = try #require(Fixtures.decodeError(#"{"products":{"productID":"a"}}"#))
        #expect(error.path == "$.products")
        #expect(error.problem == "expected an array, found an object")
    }

    @Test func wrongTypeOfField() throws {
        let error = try #require(
            Fixtures.decodeError(
                Self.catalog(
                    product: #"{"productID":"a","type":"Consumable","displayPrice":"0.99","familyShareable":"yes"}"#)))
        #expect(error.path == "$.products[0].familyShareable")
        #expect(error.problem == "expected true or false, found a string")
    }

    @Test func priceAsANumberIsAWrongType() throws {
        let error = try #require(
            Fixtures.decodeError(Self.catalog(product: #"{"productID":"a","type":"Consumable","displayPrice":0.99}"#)))
        #expect(error.path == "$.products[0].displayPrice")
        #expect(error.problem.contains("found a number"))
    }

    @Test func missingProductID() throws {
        let json =
            #"{"products":[{"productID":"a","type":"Consumable","displayPrice":"1"},{"type":"Consumable","displayPrice":"0.99"}]}"#
        let error = try #require(Fixtures.decodeError(json))
        #expect(error.description == "Bad.storekit: $.products[1].productID: missing productID")
    }

    @Test func emptyProductID() throws {
        let error = try #require(
            Fixtures.decodeError(Self.catalog(product: #"{"productID":"","type":"Consumable","displayPrice":"1"}"#)))
        #expect(error.path == "$.products[0].productID")
        #expect(error.problem == "productID is empty")
    }

    @Test func duplicateProductIDsAcrossSections() throws {
        let json = Self.catalog(
            product: #"{"productID":"s","type":"Consumable","displayPrice":"1"}"#,
            group: Self.subscription(#""recurringSubscriptionPeriod":"P1M""#))
        let error = try #require(Fixtures.decodeError(json))
        #expect(error.path == "$.subscriptionGroups[0].subscriptions[0].productID")
        #expect(error.problem == #"duplicate product ID "s" (first defined at $.products[0].productID)"#)
    }

    @Test func negativePrice() throws {
        let error = try #require(
            Fixtures.decodeError(
                Self.catalog(product: #"{"productID":"a","type":"Consumable","displayPrice":"-0.99"}"#)))
        #expect(error.path == "$.products[0].displayPrice")
        #expect(error.problem.hasPrefix(#"negative price "-0.99""#))
    }

    @Test(arguments: ["9,99,1", "abc", "1.2.3", "", ".5", "5.", "1e3", " 1", "$1", "0x10"])
    func malformedPrice(_ text: String) throws {
        let error = try #require(
            Fixtures.decodeError(
                Self.catalog(product: #"{"productID":"a","type":"Consumable","displayPrice":"\#(text)"}"#)))
        #expect(error.path == "$.products[0].displayPrice")
        #expect(error.problem.hasPrefix("malformed price \"\(text)\""))
    }

    @Test func hugePrice() throws {
        let digits = String(repeating: "9", count: 40)
        let error = try #require(
            Fixtures.decodeError(
                Self.catalog(product: #"{"productID":"a","type":"Consumable","displayPrice":"\#(digits)"}"#)))
        #expect(error.problem.contains("too many digits"))
    }

    @Test(arguments: ["P1X", "1M", "P0M", "P", "PT1H", "P1Y2M", "P-1M", "p1m", "P1000000D"])
    func invalidPeriod(_ text: String) throws {
        let json = Self.catalog(group: Self.subscription(#""recurringSubscriptionPeriod":"\#(text)""#))
        let error = try #require(Fixtures.decodeError(json))
        #expect(error.path == "$.subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod")
        #expect(error.problem.hasPrefix("invalid ISO 8601 period \"\(text)\""))
    }

    @Test func invalidOfferPeriodAndMode() throws {
        let badPeriod = Self.catalog(
            group: Self.subscription(
                #""recurringSubscriptionPeriod":"P1M","introductoryOffer":{"paymentMode":"free","subscriptionPeriod":"P2X"}"#
            ))
        let periodError = try #require(Fixtures.decodeError(badPeriod))
        #expect(periodError.path == "$.subscriptionGroups[0].subscriptions[0].introductoryOffer.subscriptionPeriod")
        let badMode = Self.catalog(
            group: Self.subscription(
                #""recurringSubscriptionPeriod":"P1M","adHocOffers":[{"offerID":"x","paymentMode":"gratis","subscriptionPeriod":"P1M"}]"#
            ))
        let modeError = try #require(Fixtures.decodeError(badMode))
        #expect(modeError.path == "$.subscriptionGroups[0].subscriptions[0].adHocOffers[0].paymentMode")
        #expect(modeError.problem == #"unknown payment mode "gratis"; expected one of free, payAsYouGo, payUpFront"#)
        let unpriced = Self.catalog(
            group: Self.subscription(
                #""recurringSubscriptionPeriod":"P1M","codeOffers":[{"paymentMode":"payAsYouGo","subscriptionPeriod":"P1M"}]"#
            ))
        #expect(
            Fixtures.decodeError(unpriced)?.path
                == "$.subscriptionGroups[0].subscriptions[0].codeOffers[0].displayPrice")
    }

    @Test func unknownProductType() throws {
        let error = try #require(
            Fixtures.decodeError(Self.catalog(product: #"{"productID":"a","type":"Subscription","displayPrice":"1"}"#)))
        #expect(error.path == "$.products[0].type")
        #expect(
            error.problem
                == #"unknown product type "Subscription"; expected one of Consumable, NonConsumable, RecurringSubscription, NonRenewingSubscription"#
        )
    }

    @Test func productTypeInTheWrongSection() throws {
        let error = try #require(
            Fixtures.decodeError(
                Self.catalog(product: #"{"productID":"a","type":"RecurringSubscription","displayPrice":"1"}"#)))
        #expect(error.path == "$.products[0].type")
        #expect(error.problem.contains("cannot be listed in products"))
    }

    @Test func missingPeriodAndBadGroupNumber() throws {
        let noPeriod = try #require(
            Fixtures.decodeError(Self.catalog(group: Self.subscription(#""referenceName":"x""#))))
        #expect(noPeriod.path == "$.subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod")
        #expect(noPeriod.problem == "missing recurringSubscriptionPeriod")
        let json =
            #"{"subscriptionGroups":[{"id":"G","subscriptions":[{"productID":"s","type":"RecurringSubscription","displayPrice":"1","groupNumber":1.5,"recurringSubscriptionPeriod":"P1M"}]}]}"#
        let level = try #require(Fixtures.decodeError(json))
        #expect(level.path == "$.subscriptionGroups[0].subscriptions[0].groupNumber")
        #expect(level.problem == "expected an integer, found 1.5")
    }

    @Test func badSettings() throws {
        let rate = try #require(Fixtures.decodeError(#"{"settings":{"_timeRate":"fast"}}"#))
        #expect(rate.path == "$.settings._timeRate")
        let errors = try #require(Fixtures.decodeError(#"{"settings":{"_storeKitErrors":[{"enabled":true}]}}"#))
        #expect(errors.path == "$.settings._storeKitErrors[0].name")
    }

    @Test func oddMemberNamesUseBracketPaths() throws {
        let error = try #require(
            Fixtures.decodeError(
                #"{"products":[{"productID":"a","type":"Consumable","displayPrice":"1","localizations":[{"locale":""}]}]}"#
            ))
        #expect(error.path == "$.products[0].localizations[0].locale")
        #expect(JSONPath.member("odd \"key\"", of: "$") == #"$["odd \"key\""]"#)
        #expect(JSONPath.member(#"back\slash"#, of: "$") == #"$["back\\slash"]"#)
        #expect(JSONPath.member(#"\""#, of: "$.a") == #"$.a["\\\""]"#)
        #expect(JSONPath.member("com.example.coins", of: "$.prices") == #"$.prices["com.example.coins"]"#)
        #expect(JSONPath.member("clé €", of: "$") == #"$["clé €"]"#)
    }

    @Test func hostileInputNeverTraps() throws {
        let deep = String(repeating: "[", count: 100_000)
        #expect(Fixtures.decodeError(deep)?.problem.contains("nesting deeper than") == true)
        var invalidUTF8 = Data(#"{"products":[{"productID":"a"#.utf8)
        invalidUTF8.append(contentsOf: [0xC3, 0x28])
        invalidUTF8.append(contentsOf: Data(#"","type":"Consumable","displayPrice":"1"}]}"#.utf8))
        let utf8Error = try? StoreKitConfiguration.decode(data: invalidUTF8, file: "u.storekit")
        #expect(utf8Error == nil)
        do {
            _ = try StoreKitConfiguration.decode(data: invalidUTF8, file: "u.storekit")
        } catch {
            #expect(error.problem.contains("invalid UTF-8"))
        }
        let huge = #"{"settings":{"_timeRate":99999999999999999999999}}"#
        #expect(Fixtures.decodeError(huge)?.problem == "expected an integer, found 99999999999999999999999")
        #expect(Fixtures.decodeError(#"{"a":1,"a":2}"#)?.problem.contains(#"duplicate member name "a""#) == true)
        #expect(Fixtures.decodeError("{} x")?.problem.contains("unexpected text after") == true)
        #expect(Fixtures.decodeError("\"\\ud800\"")?.problem.contains("unpaired UTF-16 surrogate") == true)
    }

    @Test func missingFileAndDirectoryAreErrorsNamingThePath() throws {
        let scratch = try TemporaryDirectory(prefix: "catalog-tests")
        let dir = scratch.url
        let missing = dir.appendingPathComponent("Nope.storekit")
        #expect(throws: CatalogError(file: missing.path, path: "$", problem: "no such file")) {
            try StoreKitConfiguration.load(contentsOf: missing)
        }
        #expect(throws: CatalogError(file: dir.path, path: "$", problem: "is a directory, expected a .storekit file")) {
            try StoreKitConfiguration.load(contentsOf: dir)
        }
    }

    @Test func devicesAndHugeFilesAreRefusedWithoutReading() throws {
        #expect(throws: CatalogError(file: "/dev/zero", path: "$", problem: "is not a regular file")) {
            try StoreKitConfiguration.load(contentsOf: URL(fileURLWithPath: "/dev/zero"))
        }
        let scratch = try TemporaryDirectory(prefix: "catalog-tests")
        let dir = scratch.url
        let huge = dir.appendingPathComponent("Huge.storekit")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: UInt64(StoreKitConfiguration.maximumFileSize + 1))  // sparse: no disk used
        try handle.close()
        do {
            _ = try StoreKitConfiguration.load(contentsOf: huge)
            Issue.record("expected an error")
        } catch {
            #expect(error.file == huge.path)
            #expect(error.problem.contains("larger than the 256 MiB"))
        }
        let link = dir.appendingPathComponent("Link.storekit")
        let real = dir.appendingPathComponent("Real.storekit")
        try Data(#"{"products":[]}"#.utf8).write(to: real)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        #expect(try StoreKitConfiguration.load(contentsOf: link).products.isEmpty)
    }
}
