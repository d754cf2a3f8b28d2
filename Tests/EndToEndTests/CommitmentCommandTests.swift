import Foundation
import TestSupport
import Testing

/// A 12-month commitment through the built CLI: `buy --billing-plan monthly`, two months on
/// (`store renew`), and `history` (on each payment's row), `entitlements` and `store
/// subscriptions` each say which payment it is and when the commitment ends, the day read from
/// the transaction's own `commitmentInfo`.
@Suite(.waitsOnProcesses) struct CommitmentCommandTests {
    let proYearly = "com.storefront.demo.premium.pro.yearly"

    /// `products` lists the monthly plan beside the up-front price, and `--json` gives every
    /// member of each plan, priced for the storefront (in yen, twelve payments are the total).
    @Test func productsListEachPlanAndItsPrices() throws {
        let cli = try StorefrontCLI(prefix: "commitment-products")
        let table = try cli.run(["products"])
        #expect(table.status == 0, "\(table.stderr)")
        let row = table.stdout.split(separator: "\n").first { $0.hasPrefix(proYearly + " ") }
        #expect(
            row?.hasSuffix("$79.99  every year, level 1 or $7.99/month for 12 months · $95.88 in all (1 week free)")
                == true, "\(table.stdout)")

        for (storefront, plans) in [
            ("USA", [["79.99", "$79.99", "79.99", "$79.99"], ["7.99", "$7.99", "95.88", "$95.88"]]),
            ("JPN", [["12000", "¥12,000", "12000", "¥12,000"], ["1199", "¥1,199", "14388", "¥14,388"]]),
        ] {
            let products = try cli.array(["products", "--storefront", storefront])
            let product = try #require(products.first { $0["productID"] as? String == proYearly })
            let listed = try #require(product["billingPlans"] as? [[String: Any]])
            #expect(listed.map { $0["type"] as? String } == ["BILLED_UPFRONT", "MONTHLY"])
            #expect(
                listed.map { plan in
                    ["price", "displayPrice", "commitmentPrice", "commitmentDisplayPrice"].map {
                        plan[$0] as? String ?? "?"
                    }
                } == plans, "\(storefront): \(listed)")
            #expect(listed.allSatisfy { $0["isEnabled"] as? Bool == true && $0["internalID"] is String })
            let intro = try #require(product["introductoryOffer"] as? [String: Any])
            #expect(intro["billingPlanType"] as? String == "MONTHLY" && intro["paymentMode"] as? String == "free")
        }
    }

    @Test func historyEntitlementsAndSubscriptionsSayWhichPaymentAndWhenTheCommitmentEnds() throws {
        let cli = try StorefrontCLI(prefix: "commitment-cli")
        let bought = try cli.object(["buy", proYearly, "--billing-plan", "monthly"])
        let first = try #require(bought["transaction"] as? [String: Any])
        let original = try #require(first["originalTransactionID"] as? String)
        for _ in 0..<2 { _ = try cli.object(["store", "renew", original]) }

        let transactions = try #require(try cli.object(["history"])["transactions"] as? [[String: Any]])
        let third = try #require(transactions.last)
        let commitment = try #require(third["commitmentInfo"] as? [String: Any], "\(third)")
        #expect(commitment["billingPeriodNumber"] as? Int == 3 && commitment["totalBillingPeriods"] as? Int == 12)
        let day = try #require((commitment["expirationDate"] as? String)?.prefix(10))
        let progress = "payment 3 of 12, commitment ends \(day)"

        // Each payment's row says which it is and when the commitment ended as scheduled then (a
        // forced renewal brings the months left forward); the column is there because they are.
        let history = try cli.run(["history"])
        #expect(history.status == 0, "\(history.stderr)")
        let lines = history.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("STATE      COMMITMENT") == true, "\(history.stdout)")
        #expect(transactions.count == 3)
        for (index, transaction) in transactions.enumerated() {
            let id = try #require(transaction["transactionID"] as? String)
            let info = try #require(transaction["commitmentInfo"] as? [String: Any])
            let ends = try #require((info["expirationDate"] as? String)?.prefix(10))
            let row = lines.first { $0.hasPrefix(id + " ") }
            #expect(
                row?.hasSuffix("purchased  payment \(index + 1) of 12, commitment ends \(ends)") == true,
                "\(history.stdout)")
        }

        let entitlements = try cli.run(["entitlements"])
        #expect(entitlements.status == 0, "\(entitlements.stderr)")
        #expect(entitlements.stdout.contains(progress), "\(entitlements.stdout)")

        let subscriptions = try cli.run(["store", "subscriptions"])
        #expect(subscriptions.stdout.contains("monthly: \(progress)"), "\(subscriptions.stdout)")

        // Renewing into the up-front plan at the commitment's end: every list says so.
        _ = try cli.object(["store", "renew-into", original, "--billing-plan", "upfront"])
        let after = try cli.run(["store", "subscriptions"]).stdout
        #expect(after.contains("monthly: \(progress), then \(proYearly) upfront"), "\(after)")
        #expect(try cli.run(["entitlements"]).stdout.contains("then renews up front"))

        // Into Plus (Monthly), which the catalog sells without plans: the up-front choice goes.
        let plus = "com.storefront.demo.premium.plus.monthly"
        let into = try cli.run(["store", "renew-into", original, plus])
        #expect(into.stdout.contains("renews as \(plus) when its commitment ends"), "\(into.stdout)")
        let subscription = try #require(try cli.array(["store", "subscriptions"]).first)
        #expect(subscription["autoRenewProductID"] as? String == plus)
        #expect(subscription["renewalBillingPlanType"] is NSNull, "\(subscription)")
        #expect(try cli.run(["store", "renew-into", original, plus, "--billing-plan", "monthly"]).status == 1)
    }
}
