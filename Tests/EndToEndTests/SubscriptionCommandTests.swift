import Foundation
import TestSupport
import Testing

/// The transaction manager's subscription commands and `storefront entitlements`, through the
/// real binary on a temporary data directory. Nothing waits on the wall clock: every change is
/// made by a command that acts now (renew, expire, cancel, refund, billing-issue).
@Suite(.waitsOnProcesses) struct SubscriptionCommandTests {
    let cli: StorefrontCLI
    let monthly = "com.storefront.demo.premium.basic.monthly"

    init() throws { cli = try StorefrontCLI(prefix: "sf-subs") }

    /// Buys `productID` and returns its transaction ID.
    func buy(_ productID: String) throws -> String {
        let bought = try cli.object(["buy", productID])
        return try #require(bought["transactionID"] as? String)
    }

    func entitlements() throws -> (items: [[String: Any]], groups: [[String: Any]]) {
        let o = try cli.object(["entitlements"])
        return (
            try #require(o["entitlements"] as? [[String: Any]]),
            try #require(o["subscriptionGroups"] as? [[String: Any]])
        )
    }

    func history() throws -> [[String: Any]] {
        try #require(try cli.object(["history"])["transactions"] as? [[String: Any]])
    }

    func subscriptions() throws -> [[String: Any]] { try cli.array(["store", "subscriptions"]) }

    @Test func aRenewalIsANewTransactionWithTheSameOriginalAndTheEntitlementFollowsIt() throws {
        let first = try buy(monthly)
        let renewed = try cli.object(["store", "renew", first])
        let renewal = try #require(renewed["transaction"] as? [String: Any])
        let renewalID = try #require(renewal["transactionID"] as? String)
        #expect(renewalID != first)
        #expect(renewal["originalTransactionID"] as? String == first)

        let recorded = try history()
        #expect(recorded.compactMap { $0["transactionID"] as? String } == [first, renewalID])
        #expect(recorded.allSatisfy { $0["originalTransactionID"] as? String == first })

        let now = try entitlements()
        let item = try #require(now.items.first { $0["productID"] as? String == monthly })
        #expect(now.items.count == 1)
        #expect(item["type"] as? String == "autoRenewable")
        #expect(item["state"] as? String == "active")
        #expect(item["transactionID"] as? String == renewalID)
        #expect(item["expiresDate"] as? String == renewal["expiresDate"] as? String)
        #expect(item["expiresDate"] != nil)
        let group = try #require(now.groups.first)
        #expect(group["state"] as? String == "subscribed")
        #expect(group["productID"] as? String == monthly)
        #expect(group["willAutoRenew"] as? Bool == true)
        #expect(group["autoRenewProductID"] as? String == monthly)
    }

    @Test func aRefundRevokesTheTransactionAndTheEntitlement() throws {
        let id = try buy(monthly)
        let lifetime = try buy("com.storefront.demo.lifetime")
        #expect(try entitlements().items.count == 2)

        let refunded = try cli.object(["store", "refund", id, "--reason", "1"])
        #expect((refunded["transaction"] as? [String: Any])?["revocationDate"] != nil)
        #expect((refunded["subscription"] as? [String: Any])?["expired"] as? Bool == true)

        let now = try entitlements()
        #expect(now.items.compactMap { $0["productID"] as? String } == ["com.storefront.demo.lifetime"])
        #expect(now.groups.first?["state"] as? String == "revoked")
        let recorded = try #require(try history().first { $0["transactionID"] as? String == id })
        #expect(recorded["revocationDate"] != nil)
        #expect(recorded["state"] as? String == "refunded")

        #expect(try cli.run(["store", "refund", lifetime]).status == 0)
        #expect(try entitlements().items.isEmpty)
        let again = try cli.run(["store", "refund", lifetime])
        #expect(again.status == 1)
        #expect(again.stderr.contains(lifetime) && again.stderr.contains("refunded"), "\(again.stderr)")
    }

    @Test func cancelTurnsAutoRenewOffKeepsAccessAndUndoTurnsItBackOn() throws {
        let id = try buy(monthly)
        #expect(try cli.run(["store", "cancel", monthly]).status == 0, "a product ID names the subscription too")
        let cancelled = try #require(try subscriptions().first)
        #expect(cancelled["originalTransactionID"] as? String == id)
        #expect(cancelled["willAutoRenew"] as? Bool == false)
        #expect(cancelled["expired"] as? Bool == false)
        let now = try entitlements()
        #expect(now.items.first?["state"] as? String == "active", "access continues to the end of the period")
        #expect(now.groups.first?["willAutoRenew"] as? Bool == false)

        #expect(try cli.run(["store", "cancel", id, "--undo"]).status == 0)
        #expect(try subscriptions().first?["willAutoRenew"] as? Bool == true)
        #expect(try entitlements().groups.first?["willAutoRenew"] as? Bool == true)
    }

    @Test func renewRefusesACancelledSubscriptionAndChangesNothing() throws {
        let id = try buy(monthly)
        #expect(try cli.run(["store", "cancel", id]).status == 0)
        let before = try subscriptions()
        let charges = try cli.array(["store", "charges"]).count

        let refused = try cli.run(["store", "renew", id])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(
            refused.stderr
                == "storefront: The subscription \(id) is cancelled (auto-renew is off), not one that renews: "
                + "'storefront store cancel \(id) --undo' turns auto-renew back on, 'storefront store expire \(id)' ends it now.\n"
        )
        #expect(try history().count == 1, "no renewal was made")
        #expect(try cli.array(["store", "charges"]).count == charges, "nothing was charged")
        #expect(try subscriptions().map { $0["periodEnd"] as? String } == before.map { $0["periodEnd"] as? String })
        #expect(try subscriptions().first?["willAutoRenew"] as? Bool == false)

        #expect(try cli.run(["store", "cancel", id, "--undo"]).status == 0)
        #expect(try cli.run(["store", "renew", id]).status == 0, "auto-renew on again, it renews")
        #expect(try history().count == 2)
    }

    @Test func expireEndsTheSubscriptionNowAndRenewThenRefuses() throws {
        let id = try buy(monthly)
        #expect(try entitlements().items.count == 1)
        #expect(try cli.run(["store", "expire", id]).status == 0)
        let now = try entitlements()
        #expect(now.items.isEmpty)
        #expect(now.groups.first?["state"] as? String == "expired")
        let stored = try #require(try subscriptions().first)
        #expect(stored["expired"] as? Bool == true)
        #expect(stored["expirationIntent"] as? String == "cancelled")
        #expect(stored["willAutoRenew"] as? Bool == false, "an ended subscription does not renew")
        for verb in [["expire", id], ["cancel", id], ["cancel", id, "--undo"], ["billing-issue", id, "on"]] {
            let refused = try cli.run(["store"] + verb)
            #expect(refused.status == 1 && refused.stderr.contains("is expired"), "\(verb): \(refused.stderr)")
        }

        let renew = try cli.run(["store", "renew", id])
        #expect(renew.status == 1)
        #expect(renew.stderr.contains(id) && renew.stderr.contains("expired"), "\(renew.stderr)")
    }

    @Test func billingIssueMakesAForcedRenewalFailIntoGraceAndResolvingRenews() throws {
        #expect(try cli.run(["store", "set", "grace-period", "on"]).status == 0)
        let id = try buy(monthly)
        #expect(try cli.run(["store", "billing-issue", id, "on"]).status == 0)
        #expect(try subscriptions().first?["billingIssue"] as? Bool == true)
        #expect(
            try entitlements().items.first?["state"] as? String == "active", "billing fails only at the next renewal")

        // Forced now, the renewal fails as one on the store clock would: no new transaction,
        // the period ends now, billing retry begins in a grace period, and access continues.
        let forced = try cli.object(["store", "renew", id])
        let transaction = try #require(forced["transaction"] as? [String: Any])
        #expect(transaction["transactionID"] as? String == id)
        let subscription = try #require(forced["subscription"] as? [String: Any])
        #expect(subscription["billingRetryStart"] as? String == transaction["expiresDate"] as? String)
        #expect(subscription["gracePeriodExpiresDate"] is String)
        #expect(try entitlements().items.first?["state"] as? String == "inGracePeriod")
        #expect(try entitlements().groups.first?["state"] as? String == "inGracePeriod")
        #expect(try history().count == 1, "nothing was billed")

        let again = try cli.run(["store", "renew", id])
        #expect(again.status == 1)
        #expect(again.stderr.contains("billing retry") && again.stderr.contains("billing issue off"), "\(again.stderr)")

        #expect(try cli.run(["store", "billing-issue", id, "off"]).status == 0)
        let resolved = try #require(try subscriptions().first)
        #expect(resolved["billingIssue"] as? Bool == false)
        #expect(resolved["billingRetryStart"] is NSNull)
        #expect(try history().count == 2, "resolving renews at once")
        #expect(try entitlements().items.first?["state"] as? String == "active")
    }

    @Test func aForcedRenewalThatFailsSaysSoInWords() throws {
        let id = try buy(monthly)
        #expect(try cli.run(["store", "billing-issue", id, "on"]).status == 0)
        let failed = try cli.run(["store", "renew", id])
        #expect(failed.status == 0, "\(failed.stderr)")
        #expect(failed.stdout.contains("failed (billing issue): billing retry since"), "\(failed.stdout)")
        #expect(
            failed.stdout.contains("(no grace period)") && failed.stdout.contains("billing-issue \(id) off"),
            "\(failed.stdout)")
        #expect(try entitlements().items.isEmpty, "no grace: access ends with the failed renewal")
        // Cancelled in billing retry, then billing fixed: it ends instead of renewing, and says so.
        #expect(try cli.run(["store", "cancel", id]).stdout.contains("in billing retry"))
        let resolved = try cli.run(["store", "billing-issue", id, "off"])
        #expect(
            resolved.status == 0 && resolved.stdout.contains("it had been cancelled, so it ended at"),
            "\(resolved.stdout)")
        #expect(try history().count == 1, "nothing renewed")
    }

    @Test func buyWithAnOfferAppliesAPromotionalOfferToALapsedSubscriberOnly() throws {
        let pro = "com.storefront.demo.premium.pro.monthly"
        let comeback = "com.storefront.demo.premium.pro.comeback"
        let newcomer = try cli.run(["buy", pro, "--offer", comeback])
        #expect(newcomer.status == 1 && newcomer.stderr.contains("current or lapsed subscribers"), "\(newcomer.stderr)")
        let id = try buy(monthly)
        #expect(try cli.run(["store", "expire", id]).status == 0)
        let unknown = try cli.run(["buy", pro, "--offer", "nope"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no promotional offer nope"), "\(unknown.stderr)")
        let back = try #require(try cli.object(["buy", pro, "--offer", comeback])["transaction"] as? [String: Any])
        #expect(back["offerType"] as? String == "promotional")
        #expect(back["offerID"] as? String == comeback)
        #expect(back["price"] as? String == "0")
        #expect(back["originalTransactionID"] as? String == id, "the same subscription, resumed")
        #expect(try entitlements().items.map { $0["productID"] as? String } == [pro])
    }

    @Test func unknownIDsAndBadValuesAreRefusedNamingThem() throws {
        _ = try buy(monthly)
        let coins = try buy("com.storefront.demo.coins.100")
        for verb in ["renew", "expire", "cancel"] {
            let r = try cli.run(["store", verb, "9999999"])
            #expect(r.status == 1, "\(verb)")
            #expect(r.stderr.contains("9999999"), "\(verb): \(r.stderr)")
        }
        let notASubscription = try cli.run(["store", "renew", coins])
        #expect(notASubscription.status == 1)
        #expect(notASubscription.stderr.contains(coins))
        let refund = try cli.run(["store", "refund", "9999999"])
        #expect(refund.status == 1)
        #expect(refund.stderr.contains("9999999"))
        let badFlag = try cli.run(["store", "billing-issue", monthly, "maybe"])
        #expect(badFlag.status == 2)
        #expect(badFlag.stderr.contains("'maybe'"))
        let badReason = try cli.run(["store", "refund", coins, "--reason", "7"])
        #expect(badReason.status == 2)
        #expect(badReason.stderr.contains("'7'"))
        let misplaced = try cli.run(["store", "renew", monthly, "--undo"])
        #expect(misplaced.status == 2)
        #expect(misplaced.stderr.contains("--undo"))
        let badDuration = try cli.run(["entitlements", "--non-renewing-duration", "3M"])
        #expect(badDuration.status == 2)
        #expect(badDuration.stderr.contains("'3M'"))
        #expect(try history().allSatisfy { $0["revocationDate"] == nil }, "nothing was changed by a refused command")
    }

    @Test func timeRateTakesRawValuesAndNamesAndRefusesOthersListingThem() throws {
        #expect(try cli.run(["store", "set", "time-rate", "15"]).status == 0)
        #expect(try cli.object(["store", "settings"])["time-rate"] as? String == "monthly-every-30-seconds (15)")
        #expect(try cli.run(["store", "set", "time-rate", "every-2-seconds"]).status == 0)
        #expect(try cli.object(["store", "settings"])["time-rate"] as? String == "every-2-seconds (1005)")
        let refused = try cli.run(["store", "set", "time-rate", "14"])
        #expect(refused.status == 2, "a value the setting does not take is a usage error")
        #expect(refused.stderr.contains("\"14\""))
        #expect(
            refused.stderr.contains("15 monthly-every-30-seconds") && refused.stderr.contains("1005 every-2-seconds"))
    }

    @Test func nonRenewingSubscriptionsLastTheAppsDuration() throws {
        let pass = "com.storefront.demo.seasonpass.winter"
        _ = try buy(pass)
        let item = try #require(try entitlements().items.first)
        #expect(item["type"] as? String == "nonRenewing")
        let purchase = try #require(item["purchaseDate"] as? String)
        let expires = try #require(item["expiresDate"] as? String)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let threeMonths = try #require(calendar.date(byAdding: .month, value: 3, to: try date(purchase)))
        #expect(try date(expires) == threeMonths)
        let week = try #require(
            try cli.object(["entitlements", "--non-renewing-duration", "P1W"])["entitlements"] as? [[String: Any]])
        #expect(
            try date(#require(week.first?["expiresDate"] as? String))
                == (try date(purchase)).addingTimeInterval(7 * 86_400))
    }

    func date(_ text: String) throws -> Date { try Date(text, strategy: .iso8601) }

    @Test func humanOutputShowsTheSubscriptionAndTheGroupLine() throws {
        let id = try buy(monthly)
        let cancel = try cli.run(["store", "cancel", id])
        #expect(cancel.stdout.contains("Cancelled subscription \(id)") && cancel.stdout.contains("auto-renew is off"))
        let table = try cli.run(["store", "subscriptions"]).stdout.split(separator: "\n").map(String.init)
        #expect(
            table.first?.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                == [
                    "ORIGINAL", "PRODUCT", "PERIOD", "END", "AUTO-RENEW", "NEXT", "PRODUCT", "BILLING", "STATUS",
                    "PLAN",
                ])
        let row = try #require(table.last).split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        // A product without billing plans has no plan ("—").
        #expect(
            row.count == 8 && row[0] == id && row[1] == monthly && row[3] == "off" && row[5] == "ok"
                && row[6] == "active" && row[7] == "—", "\(row)")

        let listed = try cli.run(["entitlements"]).stdout
        #expect(listed.contains("\(monthly)  autoRenewable  active"))
        #expect(listed.contains("Subscription groups:"))
        #expect(listed.contains("49EF0713 (Storefront Premium): subscribed, \(monthly) until "))
        #expect(listed.contains(", auto-renew off"))

        #expect(try cli.run(["store", "refund", id]).stdout.contains("Refunded transaction \(id)"))
        let after = try cli.run(["entitlements"]).stdout
        #expect(after.hasPrefix("No entitlements."))
        #expect(after.contains("49EF0713 (Storefront Premium): revoked, \(monthly) refunded"))
        let expired = try cli.run(["store", "subscriptions"]).stdout
        #expect(
            expired.contains("expired ") && expired.contains("(unknown)"),
            "a refund ends the period with intent unknown")
    }

    /// `store price-increase ID --price P`: the price the store cannot charge (no increase,
    /// more decimals than the currency has) exits 1 naming it; a good one is announced, and
    /// after consent the forced renewal is charged it.
    @Test func aPriceIncreaseCarriesItsPriceAndABadOneIsRefused() throws {
        let id = try buy(monthly)
        for (price, reason) in [
            ("2.999", "it has more decimals than USD allows (2)"),
            ("2.50", "a price increase must be more than the current price, 2.99 USD"),
        ] {
            let refused = try cli.run(["store", "price-increase", id, "--price", price])
            #expect(refused.status == 1 && refused.stdout.isEmpty, "\(price): \(refused.stderr)")
            #expect(
                refused.stderr == "storefront: Invalid price \(price) for \(monthly): \(reason).\n", "\(refused.stderr)"
            )
        }
        let announced = try cli.run(["store", "price-increase", id, "--price", "3.49"])
        #expect(
            announced.stdout == "Price increase of \(monthly) to 3.49 USD (subscription \(id)): pending.\n",
            "\(announced.stderr)")
        #expect(try cli.run(["store", "price-increase", id, "accept"]).status == 0)
        let renewal = try #require(try cli.object(["store", "renew", id])["transaction"] as? [String: Any])
        #expect(renewal["price"] as? String == "3.49", "\(renewal)")
        #expect(try history().last?["price"] as? String == "3.49")
    }

    @Test func helpDescribesEveryNewSubcommand() throws {
        let store = try cli.run(["help", "store"])
        #expect(store.status == 0)
        for text in [
            "renew ID", "expire ID", "cancel ID", "--undo", "refund ID", "--reason", "billing-issue ID on|off",
            "subscriptions", "time-rate",
        ] {
            #expect(store.stdout.contains(text), "help store lacks \(text)")
        }
        let entitlements = try cli.run(["help", "entitlements"])
        #expect(entitlements.status == 0)
        for text in ["--json", "--non-renewing-duration", "inGracePeriod", "subscriptionGroups"] {
            #expect(entitlements.stdout.contains(text), "help entitlements lacks \(text)")
        }
    }
}
