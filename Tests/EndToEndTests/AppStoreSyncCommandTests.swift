import Foundation
import TestSupport
import Testing

/// `storefront sync`, `storefront storefront` and `storefront latest`: StoreKit 2's
/// `AppStore.sync()`, `Storefront.current` and `Transaction.latest(for:)` through the built binary.
@Suite struct AppStoreSyncCommandTests {
    let cli: StorefrontCLI

    init() throws { cli = try StorefrontCLI(prefix: "sf-sync", instant: false) }

    @Test func syncRestoresAndLatestFollowsIt() throws {
        #expect(try cli.run(["store", "set", "latency", "0"]).status == 0)
        let never = try cli.run(["latest", DemoCatalog.removeAds])
        #expect(never.status == 1)
        #expect(never.stderr.contains("never had \(DemoCatalog.removeAds)"), "\(never.stderr)")

        #expect(try cli.run(["buy", DemoCatalog.removeAds]).status == 0)
        let bought = try cli.object(["latest", DemoCatalog.removeAds])
        #expect(bought["state"] as? String == "purchased")

        let synced = try cli.object(["sync"])
        let restored = try #require(synced["restored"] as? [[String: Any]])
        #expect(restored.map { $0["productID"] as? String } == [DemoCatalog.removeAds])
        #expect(synced["entitlements"] as? [String] == [DemoCatalog.removeAds])
        let latest = try cli.object(["latest", DemoCatalog.removeAds])
        #expect(latest["state"] as? String == "restored")
        #expect(latest["originalTransactionID"] as? String == bought["transactionID"] as? String)

        let text = try cli.run(["sync"])
        #expect(text.stdout.hasPrefix("Synced: 1 transaction restored."), "\(text.stdout)")
        #expect(text.stdout.contains("Entitled to: \(DemoCatalog.removeAds)"))
    }

    @Test func theStorefrontIsTheOneChosen() throws {
        let usa = try cli.object(["storefront"])
        #expect(usa["countryCode"] as? String == "USA")
        #expect(usa["id"] as? String == "143441")
        let japan = try cli.run(["storefront", "--storefront", "JPN"])
        #expect(japan.status == 0)
        #expect(japan.stdout == "JPN (Japan): storefront ID 143462, JPY, ja_JP\n")
    }

    @Test func argumentsAreRefused() throws {
        for (args, message) in [
            (["sync", "x"], "sync takes no arguments"), (["storefront", "x"], "storefront takes no arguments"),
            (["latest"], "latest needs exactly one product ID"),
        ] {
            let result = try cli.run(args)
            #expect(result.status == 2, "\(args)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }
}
