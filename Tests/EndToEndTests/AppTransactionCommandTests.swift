import Foundation
import TestSupport
import Testing

/// `storefront app-transaction`: StoreKit 2's `AppTransaction`, signed by the local store and
/// verified by the engine, through the built binary.
@Suite struct AppTransactionCommandTests {
    let data: TemporaryDirectory

    init() throws { data = try TemporaryDirectory() }

    func run(_ args: [String], in directory: URL? = nil) throws -> StorefrontProcess.Result {
        try StorefrontProcess.run(["--data-dir", (directory ?? data.url).path] + args, cwd: Repository.root)
    }

    func json(_ args: [String]) throws -> [String: Any] {
        let result = try run(args)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
    }

    @Test func theAppTransactionIsVerifiedAndStaysTheFirstDownloads() throws {
        let first = try json(["app-transaction", "--json"])
        #expect(first["verification"] as? String == "verified")
        #expect(first["error"] is NSNull)
        let app = try #require(first["appTransaction"] as? [String: Any])
        #expect(app["bundleID"] as? String == "com.storefront.demo")
        #expect(app["originalAppVersion"] as? String == "1.0")
        #expect((app["appTransactionID"] as? String)?.count == 18)
        #expect((first["jws"] as? String)?.split(separator: ".").count == 3)

        let again = try json(["app-transaction", "--json"])
        let second = try #require(again["appTransaction"] as? [String: Any])
        #expect(second["appTransactionID"] as? String == app["appTransactionID"] as? String)
        #expect(second["originalPurchaseDate"] as? String == app["originalPurchaseDate"] as? String)

        let text = try run(["app-transaction"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.hasPrefix("App transaction \(app["appTransactionID"] as? String ?? "?") (verified)"),
            "\(text.stdout)")
        #expect(text.stdout.contains("original app version  1.0"))
    }

    @Test func underAnotherRootItIsUnverifiedAndExitsOne() throws {
        #expect(try run(["app-transaction"]).status == 0)
        // Another store's root replaces this one's: the JWS no longer chains to what is trusted.
        let other = try TemporaryDirectory()
        #expect(try run(["app-transaction"], in: other.url).status == 0)
        let root = "store/Certificates/root.cer"
        try FileManager.default.removeItem(at: data.url(root))
        try FileManager.default.copyItem(at: other.url(root), to: data.url(root))

        let result = try run(["app-transaction", "--json"])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["verification"] as? String == "unverified")
        #expect((object["error"] as? String)?.hasPrefix("invalid certificate chain") == true, "\(object)")
        #expect(result.stderr.contains("not verified"), "\(result.stderr)")
    }

    @Test func argumentsAreRefused() throws {
        let result = try run(["app-transaction", "extra"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("app-transaction takes no arguments"), "\(result.stderr)")
    }
}
