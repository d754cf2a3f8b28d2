import Foundation
import TestSupport
import Testing

/// Issue 18's bad input, through the built binary: one rule (a bad command line exits 2, a bad
/// file or state exits 1), and every message names the file, field or value and the problem.
/// The command-line cases are in storefrontTests' usage-errors snapshot; these need files.
@Suite struct BadInputTests {
    static let demo = Repository.root.appendingPathComponent("Catalogs/Demo.storekit")

    static let product =
        #"{"productID":"x","referenceName":"X","type":"Consumable","displayPrice":"0.99","familyShareable":false,"localizations":[{"locale":"en_US","displayName":"X","description":"x"}]}"#

    /// Runs `storefront args…` on `catalog` (text of a `.storekit` file) in a fresh directory.
    func run(catalog: String, _ args: [String]) throws -> (StorefrontProcess.Result, file: String) {
        let scratch = try TemporaryDirectory(prefix: "e2e-bad")
        let file = scratch.url("c.storekit")
        try Data(catalog.utf8).write(to: file)
        let result = try StorefrontProcess.run(["--catalog", file.path, "--data-dir", scratch.url("data").path] + args)
        return (result, file.path)
    }

    @Test func catalogValuesTheStoreCannotMeanAreRefusedNamingTheMember() throws {
        let cases: [(catalog: String, expected: String)] = [
            (
                #"{"products":[\#(Self.product)],"settings":{"_storefront":"XXX"}}"#,
                #"$.settings._storefront: unknown storefront "XXX""#
            ),
            (
                #"{"products":[\#(Self.product.replacingOccurrences(of: #""x""#, with: #""a\u0000b""#))]}"#,
                "$.products[0].productID: product ID \"a\\0b\" contains the control character U+0000"
            ),
            (
                #"{"products":[\#(Self.product)],"settings":{"_timeRate":-1}}"#,
                "$.settings._timeRate: must be at least 0, found -1"
            ),
        ]
        for (catalog, expected) in cases {
            let (result, file) = try run(catalog: catalog, ["products"])
            #expect(result.status == 1, "\(expected): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("\(file): \(expected)"), "\(result.stderr)")
        }
    }

    /// What a catalog holds that is read, but not as written, is told on standard error, one
    /// line each, word for word; the command goes on and exits 0.
    @Test func catalogWarningsAreToldAndTheCommandGoesOn() throws {
        let yen =
            #"{"products":[\#(Self.product.replacingOccurrences(of: "0.99", with: "120.5"))],"settings":{"_storefront":"JPN"},"version":{"major":99,"minor":0}}"#
        let (result, file) = try run(catalog: yen, ["products", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""121""#), "the price is charged rounded: \(result.stdout)")
        #expect(
            result.stderr == """
                storefront: warning: \(file): $.version: format version 99.0 is newer than this build knows (up to 6); read as version 6, members it does not know are kept as written
                storefront: warning: \(file): $.products[0].displayPrice: price "120.5" cannot be charged exactly in JPY, which has no decimal places (storefront JPN, from settings._storefront); it is rounded to 121

                """)
        // The storefront in use decides: the same file in the United States has nothing to say
        // about its price, and a comma is read as a point wherever it is used.
        let comma = #"{"products":[\#(Self.product.replacingOccurrences(of: "0.99", with: "1,999"))]}"#
        let (inUSA, commaFile) = try run(catalog: comma, ["products", "--storefront", "USA"])
        #expect(inUSA.status == 0)
        #expect(
            inUSA.stderr == """
                storefront: warning: \(commaFile): $.products[0].displayPrice: price "1,999" has a comma for its decimal point; read as 1.999
                storefront: warning: \(commaFile): $.products[0].displayPrice: price "1,999" cannot be charged exactly in USD, which has 2 decimal places (storefront USA, from --storefront); it is rounded to 2.00

                """)
        let (onlyYen, _) = try run(catalog: yen, ["products", "--storefront", "USA"])
        #expect(!onlyYen.stderr.contains("cannot be charged"), "\(onlyYen.stderr)")
    }

    @Test func anEmptyCatalogSaysSo() throws {
        let (result, file) = try run(catalog: "", ["products"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "storefront: cannot load the catalog: \(file): $: the file is empty; a StoreKit Configuration file holds the JSON that Xcode writes\n"
        )
    }

    @Test func aTimeRateTheStoreDoesNotKnowIsRefusedWhenTheStoreOpens() throws {
        let (result, file) = try run(
            catalog: #"{"products":[\#(Self.product)],"settings":{"_timeRate":14}}"#, ["history"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"Invalid value "14" for setting _timeRate (in \#(file))"#), "\(result.stderr)")
    }

    @Test func aDataDirectoryThatCannotBeOneSaysWhy() throws {
        let scratch = try TemporaryDirectory(prefix: "e2e-bad")
        let file = scratch.url("FILE")
        try Data().write(to: file)
        let underFile = try StorefrontProcess.run([
            "--catalog", Self.demo.path, "--data-dir", file.path + "/sub", "history",
        ])
        #expect(underFile.status == 1)
        #expect(
            underFile.stderr
                == "storefront: cannot create the data directory \(file.path)/sub: \(file.path) is a file, not a directory\n"
        )
        #expect(!underFile.stderr.contains("NSCocoaErrorDomain"))

        let loop = scratch.url("loop1")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: scratch.url("loop2").path)
        try FileManager.default.createSymbolicLink(atPath: scratch.url("loop2").path, withDestinationPath: loop.path)
        let looped = try StorefrontProcess.run(["--catalog", Self.demo.path, "--data-dir", loop.path, "history"])
        #expect(looped.status == 1)
        #expect(looped.stderr.contains("is a loop of symbolic links"), "\(looped.stderr)")
        #expect(!looped.stderr.contains("no such file"))
    }
}
