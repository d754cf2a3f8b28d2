import Foundation
import TestSupport
import Testing

/// Family Sharing through the built binary: `store family` verbs, `--account` and `store family
/// sign-in`, each account's own vault, a purchase shared and then revoked.
@Suite(.waitsOnProcesses) struct FamilyCommandTests {
    let cli: StorefrontCLI

    init() throws { cli = try StorefrontCLI(prefix: "sf-family") }

    func entitlements(_ account: [String] = []) throws -> [String] {
        try #require(try cli.object(["entitlements"] + account)["entitlements"] as? [[String: Any]]).compactMap {
            $0["productID"] as? String
        }
    }

    func history(_ account: [String]) throws -> [[String: Any]] {
        try #require(try cli.object(["history"] + account)["transactions"] as? [[String: Any]])
    }

    @Test func aPurchaseSharedWithAMemberThenRevokedWhenSharingStops() throws {
        let added = try cli.run(["store", "family", "add", "bob", "--name", "Bob"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "Bob (bob) joined the family of Local Tester.\n")
        _ = try cli.buy(DemoCatalog.removeAds)
        _ = try cli.buy(DemoCatalog.coins)

        // Bob's app, signed in to Bob: the shared purchase is delivered at its start.
        #expect(try entitlements(["--account", "bob"]) == [DemoCatalog.removeAds])
        let bobs = try history(["--account", "bob"])
        #expect(bobs.map { $0["ownershipType"] as? String } == ["FAMILY_SHARED"])
        #expect(try history([]).map { $0["ownershipType"] as? String } == ["PURCHASED", "PURCHASED"])
        #expect(try entitlements() == [DemoCatalog.removeAds], "the purchaser's own")

        let off = try cli.run(["store", "family", "share", DemoCatalog.removeAds, "off"])
        #expect(off.status == 0, "\(off.stderr)")
        #expect(try entitlements(["--account", "bob"]).isEmpty, "the member's app loses it")
        let revoked = try #require(try history(["--account", "bob"]).first)
        #expect(revoked["revocationDate"] != nil && revoked["revocationReason"] as? Int == 0)
        #expect(try entitlements() == [DemoCatalog.removeAds], "the purchaser keeps it")

        // Each account's purchases are apart in its own vault.
        let fm = FileManager.default
        #expect(fm.fileExists(atPath: cli.data.appendingPathComponent("accounts/bob/vault.sfv").path))
        #expect(fm.fileExists(atPath: cli.data.appendingPathComponent("vault.sfv").path))
    }

    @Test func signingInToAnotherAccountChangesWhatTheCommandsShow() throws {
        #expect(try cli.run(["store", "family", "add", "carol", "--name", "Carol", "--country", "JPN"]).status == 0)
        _ = try cli.buy(DemoCatalog.removeAds)
        let signIn = try cli.run(["store", "family", "sign-in", "carol"])
        #expect(signIn.status == 0, "\(signIn.stderr)")
        #expect(try String(contentsOf: cli.data.appendingPathComponent("account"), encoding: .utf8) == "carol\n")
        #expect(try entitlements() == [DemoCatalog.removeAds])
        let carols = try history([])
        #expect(carols.first?["ownershipType"] as? String == "FAMILY_SHARED")
        #expect(carols.first?["storefront"] as? String == "JPN", "the account's own storefront")
        let family = try cli.object(["store", "family"])
        #expect(family["signedIn"] as? String == "carol" && family["organizer"] as? String == "local-tester")
        #expect(try cli.run(["store", "family", "sign-in", "local-tester"]).status == 0)
        #expect(try history([]).count == 1)
    }

    /// Decision 0131 through the binary: Bob buying the shared non-consumable is not charged; Bob
    /// subscribing himself keeps the shared subscription, and his app lists both statuses.
    @Test func aMemberBuyingWhatTheFamilySharesAndItsTwoStatuses() throws {
        #expect(try cli.run(["store", "family", "add", "bob", "--name", "Bob"]).status == 0)
        _ = try cli.buy(DemoCatalog.removeAds)
        _ = try cli.buy(DemoCatalog.pro)
        let again = try cli.object(["buy", DemoCatalog.removeAds, "--account", "bob"])
        let transaction = try #require(again["transaction"] as? [String: Any])
        #expect(transaction["ownershipType"] as? String == "FAMILY_SHARED", "\(transaction)")
        _ = try cli.object(["buy", DemoCatalog.basic, "--account", "bob"])
        let charges = try cli.array(["store", "charges", "--account", "bob"])
        #expect(charges.compactMap { $0["productID"] as? String } == [DemoCatalog.basic], "\(charges)")

        let groups = try #require(
            try cli.object(["entitlements", "--account", "bob"])["subscriptionGroups"] as? [[String: Any]])
        #expect(groups.compactMap { $0["ownershipType"] as? String } == ["PURCHASED", "FAMILY_SHARED"], "\(groups)")
        #expect(groups.compactMap { $0["productID"] as? String } == [DemoCatalog.basic, DemoCatalog.pro])
        #expect(Set(groups.compactMap { $0["groupID"] as? String }).count == 1, "one group, two statuses")
        #expect(groups.allSatisfy { $0["state"] as? String == "subscribed" && $0["willAutoRenew"] as? Bool == true })
        let lines = try cli.run(["entitlements", "--account", "bob"])
        #expect(lines.stdout.contains("(Family Sharing): subscribed, \(DemoCatalog.pro)"), "\(lines.stdout)")
    }

    /// The purchaser's process killed with SIGKILL at each fault point of a purchase: Bob's app
    /// holds his shared transaction exactly when the purchaser was charged, once, however often
    /// it runs, and still after the purchaser's next run completes what the kill left.
    @Test(arguments: ["before-charge", "after-charge", "before-finish", "mid-vault-write"])
    func aPurchaseKilledMidShareGivesTheMemberItsTransactionOnce(_ point: String) throws {
        #expect(try cli.run(["store", "family", "add", "bob", "--name", "Bob"]).status == 0)
        let killed = try cli.run(["buy", DemoCatalog.removeAds], environment: ["STOREFRONT_FAULT": point])
        #expect(killed.status != 0, "\(point): the purchase ran to its end")
        func check(_ when: String) throws -> Int {
            let charged = try cli.array(["store", "charges"]).filter {
                $0["productID"] as? String == DemoCatalog.removeAds
            }
            for run in 1...2 {
                let bobs = try history(["--account", "bob"])
                #expect(bobs.count == charged.count, "\(point), \(when), Bob's run \(run): \(bobs) for \(charged)")
                #expect(bobs.allSatisfy { $0["ownershipType"] as? String == "FAMILY_SHARED" })
            }
            return charged.count
        }
        let charged = try check("after the kill")
        #expect(charged == (point == "before-charge" ? 0 : 1), "\(point): charged \(charged) times")
        let own = try history([]).filter { $0["productID"] as? String == DemoCatalog.removeAds }
        #expect(own.count <= 1, "\(point): the purchaser's purchase delivered twice: \(own)")
        _ = try check("after the purchaser's next run")
    }

    @Test func badAccountsAreRefusedByName() throws {
        let unknown = try cli.run(["history", "--account", "nobody"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("--account: No account \"nobody\""), "\(unknown.stderr)")
        let invalid = try cli.run(["store", "family", "add", "../x"])
        #expect(invalid.status == 2 && invalid.stderr.contains("Invalid account ID \"../x\""), "\(invalid.stderr)")
        let notShareable = try cli.run(["store", "family", "share", DemoCatalog.coins, "off"])
        #expect(notShareable.status == 1 && notShareable.stderr.contains("cannot be shared"), "\(notShareable.stderr)")
        try "../../etc\n".write(to: cli.data.appendingPathComponent("account"), atomically: true, encoding: .utf8)
        let damaged = try cli.run(["history"])
        #expect(damaged.status == 1 && damaged.stderr.contains("/account: Invalid account ID"), "\(damaged.stderr)")
    }
}
