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
                #"{"products":[\#(Self.product.replacingOccurrences(of: "0.99", with: "1.999"))]}"#,
                #"$.products[0].displayPrice: price "1.999" has more decimals than USD allows (2)"#
            ),
            (
                #"{"products":[\#(Self.product)],"version":{"major":99}}"#,
                "$.version.major: format version 99 is newer than this build reads (up to 5)"
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
        // A JPY catalog may not have cents either: the base currency is the catalog's storefront's.
        let yen =
            #"{"products":[\#(Self.product.replacingOccurrences(of: "0.99", with: "120.5"))],"settings":{"_storefront":"JPN"}}"#
        let (result, _) = try run(catalog: yen, ["products"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has more decimals than JPY allows (0)"), "\(result.stderr)")
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
