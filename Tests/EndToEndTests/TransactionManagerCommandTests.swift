import Foundation
import TestSupport
import Testing

/// `storefront store` pending purchases (approve, decline, resolve) and charges, through the
/// built binary on a temporary data directory.
@Suite(.waitsOnProcesses) struct TransactionManagerCommandTests {
    let cli: StorefrontCLI

    init() throws { cli = try StorefrontCLI(prefix: "sf-manager") }

    @Test func anInterruptedPurchaseNamesResolveAndApproveSendsThere() throws {
        try cli.set([("interrupt-purchases", "on")])
        let bought = try cli.run(["buy", DemoCatalog.removeAds])
        #expect(bought.status == 0, "\(bought.stderr)")
        let id = "2000000000000001"
        #expect(
            bought.stdout
                == "Interrupted: Remove Ads (transaction \(id)). End the wait with 'storefront store resolve \(id)'.\n")

        for verb in ["approve", "decline"] {
            let refused = try cli.run(["store", verb, id])
            #expect(refused.status == 1, "\(verb)")
            #expect(
                refused.stderr == "storefront: Transaction \(id) is an interrupted purchase waiting to be resolved "
                    + "(use 'storefront store resolve \(id)'), not an Ask to Buy purchase waiting for approval. "
                    + "`storefront store pending` lists the transactions that wait.\n")
        }
        let resolved = try cli.run(["store", "resolve", id])
        #expect(
            resolved.stdout == "Resolved transaction \(id) (\(DemoCatalog.removeAds)): now purchased.\n",
            "\(resolved.stderr)")
    }

    @Test func anAskToBuyPurchaseNamesApproveAndResolveSendsThere() throws {
        try cli.set([("ask-to-buy", "on")])
        let bought = try cli.run(["buy", DemoCatalog.removeAds])
        let id = "2000000000000001"
        #expect(
            bought.stdout
                == "Waiting for approval: Remove Ads (transaction \(id)). End the wait with 'storefront store approve \(id)' or 'storefront store decline \(id)'.\n"
        )
        let refused = try cli.run(["store", "resolve", id])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "is an Ask to Buy purchase waiting for approval (use 'storefront store approve \(id)' or "
                    + "'storefront store decline \(id)'), not an interrupted purchase waiting to be resolved."),
            "\(refused.stderr)")
    }

    @Test func chargesShowARefundedPurchaseAsRefundedAsHistoryDoes() throws {
        let id = try cli.buy(DemoCatalog.removeAds)
        _ = try cli.buy(DemoCatalog.coins)
        #expect(try cli.run(["store", "refund", id]).status == 0)

        let charges = try cli.array(["store", "charges"])
        #expect(charges.map { $0["state"] as? String } == ["refunded", "purchased"])
        #expect(charges.first?["revocationDate"] != nil)
        let history = try #require(try cli.object(["history"])["transactions"] as? [[String: Any]])
        #expect(history.map { $0["state"] as? String } == charges.map { $0["state"] as? String })

        let table = try cli.run(["store", "charges"]).stdout
        let row = try #require(table.split(separator: "\n").first { $0.hasPrefix(id) })
        #expect(row.hasSuffix("refunded"), "\(table)")
    }
}
