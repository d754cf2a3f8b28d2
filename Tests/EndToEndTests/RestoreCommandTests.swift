import Foundation
import TestSupport
import Testing

/// `storefront restore` (StoreKit 1's `restoreCompletedTransactions`) and `storefront sync`
/// (StoreKit 2's `AppStore.sync()`) bring back different things, through the built binary.
@Suite(.waitsOnProcesses) struct RestoreCommandTests {
    let cli: StorefrontCLI
    static let seasonPass = "com.storefront.demo.seasonpass.winter"

    init() throws { cli = try StorefrontCLI(prefix: "sf-restore") }

    func restored(_ command: String) throws -> [String] {
        try #require(try cli.object([command])["restored"] as? [[String: Any]]).compactMap {
            $0["productID"] as? String
        }
    }

    @Test func restoreBringsBackNonConsumablesAndAutoRenewablesSyncAlsoNonRenewing() throws {
        for product in [DemoCatalog.coins, DemoCatalog.removeAds, DemoCatalog.basic, Self.seasonPass] {
            _ = try cli.buy(product)
        }
        // Apple: restoreCompletedTransactions has no effect on a non-renewing subscription or
        // a consumable; Transaction.currentEntitlements (what sync brings up to date) has both kinds.
        #expect(try restored("restore") == [DemoCatalog.removeAds, DemoCatalog.basic])
        #expect(try restored("sync") == [DemoCatalog.removeAds, DemoCatalog.basic, Self.seasonPass])
        let text = try cli.run(["restore"])
        #expect(!text.stdout.contains(Self.seasonPass), "\(text.stdout)")
    }
}
