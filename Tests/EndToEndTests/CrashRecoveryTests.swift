import Foundation
import TestSupport
import Testing

/// The real `storefront` binary killed with SIGKILL at the fault points, then run again: the
/// purchase is delivered once, the balance grows once, nothing is charged twice.
@Suite(.waitsOnProcesses) struct CrashRecoveryTests {
    let cli: StorefrontCLI
    let coins = "com.storefront.demo.coins.100"

    init() throws { cli = try StorefrontCLI(prefix: "sf-crash") }

    func history() throws -> (transactions: [[String: Any]], balances: [String: Int]) {
        let object = try #require(try cli.json(["history"]) as? [String: Any])
        return (
            try #require(object["transactions"] as? [[String: Any]]), try #require(object["balances"] as? [String: Int])
        )
    }

    func charges() throws -> [[String: Any]] { try #require(try cli.json(["store", "charges"]) as? [[String: Any]]) }

    @Test(arguments: ["before-charge", "after-charge", "mid-vault-write", "before-finish"])
    func aPurchaseKilledMidwayIsDeliveredExactlyOnceOnTheNextRun(point: String) throws {
        let killed = try cli.run(
            ["buy", coins, "--order-data", "myProductId=K-1"], environment: ["STOREFRONT_FAULT": point])
        #expect(killed.signaled && killed.status == 9, "the process must die by SIGKILL at \(point)")

        let first = try history()
        #expect(first.balances[coins] == 1)
        #expect(first.transactions.count == 1)
        let orderData = first.transactions.first?["orderData"] as? [String: String]
        #expect(orderData?["myProductId"] == "K-1", "the app's order data survives the crash")
        #expect(try history().balances[coins] == 1, "a second run delivers nothing again")
        #expect(try charges().count == 1)

        #expect(try cli.run(["buy", coins]).status == 0)
        #expect(try history().balances[coins] == 2)
        #expect(try charges().count == 2)
    }

    @Test func twoBuysAtOnceBothLand() throws {
        let processes = try (0..<2).map { _ in try cli.start(["buy", coins]) }
        let results = processes.map { $0.wait() }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        let after = try history()
        #expect(after.balances[coins] == 2)
        #expect(Set(after.transactions.compactMap { $0["transactionID"] as? String }).count == 2)
        #expect(try charges().count == 2)
    }

    @Test func anApprovalInAnotherProcessIsDeliveredOnce() throws {
        #expect(try cli.run(["store", "set", "ask-to-buy", "on"]).status == 0)
        let pending = try #require(try cli.json(["buy", "com.storefront.demo.lifetime"]) as? [String: Any])
        #expect(pending["state"] as? String == "pending")
        let id = try #require(pending["transactionID"] as? String)
        #expect(try charges().isEmpty, "nothing is charged before approval")
        #expect(try cli.run(["store", "approve", id]).status == 0)
        let delivered = try history().transactions
        #expect(delivered.map { $0["transactionID"] as? String } == [id])
        #expect(delivered.first?["state"] as? String == "purchased")
        #expect(try history().transactions.count == 1)
        #expect(try charges().count == 1)
    }

    @Test func declinedAskToBuyFailsAndChargesNothing() throws {
        #expect(try cli.run(["store", "set", "ask-to-buy", "on"]).status == 0)
        let pending = try #require(try cli.json(["buy", "com.storefront.demo.lifetime"]) as? [String: Any])
        let id = try #require(pending["transactionID"] as? String)
        #expect(try cli.run(["store", "decline", id]).status == 0)
        #expect(try history().transactions.isEmpty)
        #expect(try charges().isEmpty)
    }

    @Test func simulatedErrorsAndPaymentsNotAllowedFailWithClearMessages() throws {
        #expect(try cli.run(["store", "set", "fail-purchases", "network"]).status == 0)
        let failed = try cli.run(["buy", coins])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("failed"))
        #expect(try cli.run(["store", "set", "fail-purchases", "off"]).status == 0)
        #expect(try cli.run(["store", "set", "payments-allowed", "off"]).status == 0)
        let refused = try cli.run(["buy", coins])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not allowed"))
        let unknown = try cli.run(["store", "set", "volume", "11"])
        #expect(unknown.status == 2, "an unknown setting is a usage error")
        #expect(unknown.stderr.contains("volume"))
    }
}
