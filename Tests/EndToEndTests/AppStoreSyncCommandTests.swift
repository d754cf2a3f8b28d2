import Foundation
import TestSupport
import Testing

/// `storefront sync`, `storefront storefront` and `storefront latest`: StoreKit 2's
/// `AppStore.sync()`, `Storefront.current` and `Transaction.latest(for:)` through the built binary.
@Suite struct AppStoreSyncCommandTests {
    let data: TemporaryDirectory

    init() throws { data = try TemporaryDirectory() }

    func run(_ args: [String]) throws -> StorefrontProcess.Result {
        try StorefrontProcess.run(["--data-dir", data.path("")] + args, cwd: Repository.root)
    }

    func json(_ args: [String]) throws -> Any {
        let result = try run(args)
        #expect(result.status == 0, "\(args): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: .fragmentsAllowed)
    }

    @Test func syncRestoresAndLatestFollowsIt() throws {
        #expect(try run(["store", "set", "latency", "0"]).status == 0)
        let never = try run(["latest", DemoCatalog.removeAds])
        #expect(never.status == 1)
        #expect(never.stderr.contains("never had \(DemoCatalog.removeAds)"), "\(never.stderr)")

        #expect(try run(["buy", DemoCatalog.removeAds]).status == 0)
        let bought = try #require(try json(["latest", DemoCatalog.removeAds, "--json"]) as? [String: Any])
        #expect(bought["state"] as? String == "purchased")

        let synced = try #require(try json(["sync", "--json"]) as? [String: Any])
        let restored = try #require(synced["restored"] as? [[String: Any]])
        #expect(restored.map { $0["productID"] as? String } == [DemoCatalog.removeAds])
        #expect(synced["entitlements"] as? [String] == [DemoCatalog.removeAds])
        let latest = try #require(try json(["latest", DemoCatalog.removeAds, "--json"]) as? [String: Any])
        #expect(latest["state"] as? String == "restored")
        #expect(latest["originalTransactionID"] as? String == bought["transactionID"] as? String)

        let text = try run(["sync"])
        #expect(text.stdout.hasPrefix("Synced: 1 transaction restored."), "\(text.stdout)")
        #expect(text.stdout.contains("Entitled to: \(DemoCatalog.removeAds)"))
    }

    @Test func theStorefrontIsTheOneChosen() throws {
        let usa = try #require(try json(["storefront", "--json"]) as? [String: Any])
        #expect(usa["countryCode"] as? String == "USA")
        #expect(usa["id"] as? String == "143441")
        let japan = try run(["storefront", "--storefront", "JPN"])
        #expect(japan.status == 0)
        #expect(japan.stdout == "JPN (Japan): storefront ID 143462, JPY, ja_JP\n")
    }

    @Test func argumentsAreRefused() throws {
        for (args, message) in [(["sync", "x"], "sync takes no arguments"), (["storefront", "x"], "storefront takes no arguments"),
                                (["latest"], "latest needs exactly one product ID")] {
            let result = try run(args)
            #expect(result.status == 2, "\(args)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }
}
