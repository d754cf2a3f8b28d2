import Foundation
import TestSupport
import Testing

/// Issue 18 item 6: lost purchases are never shown silently as fewer purchases. A vault that
/// was deleted (key kept), truncated or replaced by an older copy is compared with the store:
/// `history` and `entitlements` exit 1 naming the vault and what is missing, restore the
/// non-consumables and subscriptions at once, and name the consumables nobody can give back.
@Suite struct LostPurchaseTests {
    static let demo = Repository.root.appendingPathComponent("Catalogs/Demo.storekit").path
    static let monthly = "com.storefront.demo.premium.pro.monthly"

    func sf(_ data: URL, _ args: [String]) throws -> StorefrontProcess.Result {
        try StorefrontProcess.run(["--catalog", Self.demo, "--data-dir", data.path] + args)
    }

    /// Buys coins ×3, Remove Ads and a subscription; returns the data directory.
    func bought(_ scratch: TemporaryDirectory) throws -> URL {
        let data = scratch.url("data")
        for args in [
            ["buy", DemoCatalog.coins, "--quantity", "3"], ["buy", DemoCatalog.removeAds], ["buy", Self.monthly],
        ] {
            let result = try sf(data, args)
            #expect(result.status == 0, "\(args): \(result.stderr)")
        }
        return data
    }

    func historyIDs(_ data: URL) throws -> (status: Int32, products: [String], stderr: String, balances: [String: Int])
    {
        let result = try sf(data, ["history", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let transactions = try #require(object["transactions"] as? [[String: Any]])
        let balances = (object["balances"] as? [String: Int]) ?? [:]
        return (result.status, transactions.compactMap { $0["productID"] as? String }, result.stderr, balances)
    }

    @Test func aDeletedVaultIsReportedAndWhatTheStoreCanGiveBackIsRestored() throws {
        let scratch = try TemporaryDirectory(prefix: "e2e-lost")
        let data = try bought(scratch)
        let whole = try historyIDs(data)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.balances[DemoCatalog.coins] == 3)

        let vault = data.appendingPathComponent("vault.sfv")
        try FileManager.default.removeItem(at: vault)
        let first = try historyIDs(data)
        #expect(first.status == 1, "a lost vault is never a quiet, shorter history")
        #expect(
            first.stderr.contains(
                "the purchase vault \(vault.path) lacks 3 transactions the store says this app finished"),
            "\(first.stderr)")
        #expect(
            first.stderr.contains("restored from the store: \(Self.monthly), \(DemoCatalog.removeAds)"),
            "\(first.stderr)")
        #expect(
            first.stderr.contains(
                "consumables the store cannot give back, missing from the balances: \(DemoCatalog.coins) ×3"),
            "\(first.stderr)")
        let entitlements = try sf(data, ["entitlements", "--json"])
        #expect(
            entitlements.stdout.contains(DemoCatalog.removeAds) && entitlements.stdout.contains(Self.monthly),
            "restored at once")

        // Once restored, only the consumables stay missing, and they stay named.
        let second = try historyIDs(data)
        #expect(second.status == 1)
        #expect(second.stderr.contains("lacks 1 transaction the store says"), "\(second.stderr)")
        #expect(
            second.stderr.contains("\(DemoCatalog.coins) ×3") && !second.stderr.contains("restored from the store"),
            "\(second.stderr)")
        #expect(Set(second.products).isSuperset(of: [DemoCatalog.removeAds, Self.monthly]))
    }

    @Test func aVaultRolledBackToAnOlderCopyIsReported() throws {
        let scratch = try TemporaryDirectory(prefix: "e2e-lost")
        let data = scratch.url("data")
        #expect(try sf(data, ["buy", DemoCatalog.removeAds]).status == 0)
        let vault = data.appendingPathComponent("vault.sfv")
        let older = scratch.url("vault.older")
        try FileManager.default.copyItem(at: vault, to: older)
        #expect(try sf(data, ["buy", DemoCatalog.coins, "--quantity", "2"]).status == 0)
        // The older copy is a state the vault really was in: only the store can tell.
        try FileManager.default.removeItem(at: vault)
        try FileManager.default.copyItem(at: older, to: vault)
        let history = try historyIDs(data)
        #expect(history.status == 1)
        #expect(
            history.stderr.contains("lacks 1 transaction") && history.stderr.contains("\(DemoCatalog.coins) ×2"),
            "\(history.stderr)")
        let entitlements = try sf(data, ["entitlements"])
        #expect(entitlements.status == 1, "entitlements say so too")
        #expect(entitlements.stderr.contains("\(DemoCatalog.coins) ×2"), "\(entitlements.stderr)")
    }

    @Test func aWholeVaultSaysNothing() throws {
        let scratch = try TemporaryDirectory(prefix: "e2e-lost")
        let data = try bought(scratch)
        let history = try sf(data, ["history"])
        #expect(history.status == 0)
        #expect(history.stderr.isEmpty, "\(history.stderr)")
        let restored = try sf(data, ["restore"])
        #expect(restored.status == 0)
        #expect(try sf(data, ["entitlements"]).stderr.isEmpty)
    }
}
