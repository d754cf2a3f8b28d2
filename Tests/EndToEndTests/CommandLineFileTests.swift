import Foundation
import TestSupport
import Testing

/// Files named on the command line (a receipt, a signed transaction, a root certificate, a
/// catalog and its price sidecar): a message names the file that is wrong and what is wrong
/// with it, through the built binary.
@Suite(.waitsOnProcesses) struct CommandLineFileTests {
    let scratch: TemporaryDirectory
    static let receipt = Repository.root.appendingPathComponent("Tests/ReceiptsTests/Fixtures/receipt-production.b64")
        .path

    init() throws { scratch = try TemporaryDirectory(prefix: "sf-files") }

    func run(_ args: [String]) throws -> StorefrontProcess.Result {
        try StorefrontProcess.run(args + ["--data-dir", scratch.path("data")], cwd: Repository.root)
    }

    @Test func aRootThatIsNoCertificateIsNamedNotTheReceiptOrTransaction() throws {
        let root = scratch.path("not-a-certificate.cer")
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: root))
        let jws = scratch.path("tx.jws")
        try Data("a.b.c".utf8).write(to: URL(fileURLWithPath: jws))
        for args in [
            ["receipt", "verify", Self.receipt, "--root", root], ["transaction", "verify", jws, "--root", root],
        ] {
            let result = try run(args)
            #expect(result.status == 1, "\(args)")
            #expect(
                result.stderr
                    == "storefront: root certificate \(root) is not a DER or PEM certificate: no PEM certificate found\n",
                "\(args)")
        }
    }

    @Test func aDirectoryIsSaidToBeOne() throws {
        let directory = scratch.path("folder")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let jws = scratch.path("tx.jws")
        try Data("a.b.c".utf8).write(to: URL(fileURLWithPath: jws))
        for (args, what) in [
            (["receipt", directory], "receipt"),
            (["receipt", "verify", directory, "--root", directory], "root certificate"),
            (["receipt", "verify", Self.receipt, "--root", directory], "root certificate"),
            (["transaction", "verify", directory], "signed transaction"),
            (["transaction", "verify", jws, "--root", directory], "root certificate"),
        ] {
            let result = try run(args)
            #expect(result.status == 1, "\(args)")
            #expect(
                result.stderr == "storefront: cannot read \(what) \(directory): is a directory, expected a file\n",
                "\(args)")
        }
        let missing = try run(["receipt", scratch.path("nothing.b64")])
        #expect(missing.stderr == "storefront: cannot read receipt \(scratch.path("nothing.b64")): no such file\n")
    }

    @Test func aPriceSidecarThatIsADirectoryIsNamedAsThePriceFile() throws {
        let catalog = scratch.path("Demo.storekit")
        try FileManager.default.copyItem(at: DemoCatalog.url, to: URL(fileURLWithPath: catalog))
        try FileManager.default.createDirectory(
            atPath: scratch.path("Demo.prices.json"), withIntermediateDirectories: false)
        let result = try run(["products", "--catalog", catalog])
        #expect(result.status == 1)
        #expect(
            result.stderr == "storefront: cannot load the catalog: \(scratch.path("Demo.prices.json")): $: "
                + "is a directory, expected a price sidecar (NAME.prices.json)\n")
    }
}
