import Foundation
import LocalAppStore
import StoreCore
import TestSupport
import Testing

@testable import AppStoreServer

@Suite struct EndpointTests {
    @Test func transactionInfoSignsTheTransactionAndUnknownIDsGetApplesErrors() async throws {
        let fixture = try await ServerFixture()
        let t = try await fixture.buy(ServerFixture.pro)
        let answer = try await fixture.api("GET", "/inApps/v1/transactions/\(t.transactionID)")
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/json")
        let jws = try #require(try answer.json()["signedTransactionInfo"] as? String)
        let payload = try ServerFixture.payload(jws)
        #expect(payload["transactionId"] as? String == t.transactionID)
        #expect(payload["productId"] as? String == ServerFixture.pro)
        #expect(payload["price"] as? Int == 9990)
        #expect(payload["environment"] as? String == "Sandbox")

        let missing = try await fixture.api("GET", "/inApps/v1/transactions/9999999999999999")
        #expect(missing.status == 404)
        #expect(try missing.json()["errorCode"] as? Int == 4_040_010)
        #expect(try missing.json()["errorMessage"] as? String == "Transaction id not found.")
        let invalid = try await fixture.api("GET", "/inApps/v1/transactions/abc")
        #expect(invalid.status == 400)
        #expect(try invalid.json()["errorCode"] as? Int == 4_000_006)
        await fixture.close()
    }

    /// Every refusal carries Apple's error body (`errorCode`, `errorMessage`), so a client reads a code.
    @Test func unknownPathsAre404AndWrongMethods405WithApplesErrorBody() async throws {
        let fixture = try await ServerFixture()
        for path in ["/inApps/v1/nothing/1", "/", "/inApps/v3/history/1", "/verifyReceipt/extra"] {
            let missing = try await fixture.api("GET", path)
            #expect(missing.status == 404, "\(path)")
            #expect(missing.headers["content-type"] == "application/json")
            #expect(try missing.json()["errorCode"] as? Int == 4_040_000)
            #expect(
                try missing.json()["errorMessage"] as? String
                    == "Not found. The path is not an App Store Server API endpoint.")
        }
        for (method, path, allowed) in [
            ("DELETE", "/inApps/v1/transactions/1", "GET"), ("POST", "/inApps/v2/history/1", "GET"),
            ("GET", "/ocsp", "POST"), ("PATCH", "/inApps/v1/notifications/test", "POST"),
        ] {
            let wrong = try await fixture.api(method, path)
            #expect(wrong.status == 405, "\(method) \(path)")
            #expect(wrong.headers["allow"] == allowed)
            #expect(wrong.headers["content-type"] == "application/json")
            #expect(try wrong.json()["errorCode"] as? Int == 4_050_000)
            #expect(
                try wrong.json()["errorMessage"] as? String == "Method not allowed. The path does not take this method."
            )
        }
        await fixture.close()
    }

    @Test func historyPagesByTwentyWithRevisionsSortAndFilters() async throws {
        let fixture = try await ServerFixture()
        var bought: [String] = []
        for _ in 0..<23 { bought.append(try await fixture.buy(ServerFixture.coins).transactionID) }
        fixture.clock.advance(by: 10)
        let pro = try await fixture.buy(ServerFixture.pro)
        fixture.clock.advance(by: 60)
        _ = try await fixture.store.transactionManager.refund(transactionID: bought[0])

        func ids(_ answer: HTTPClient.Answer) throws -> [String] {
            try (try answer.json()["signedTransactions"] as? [String] ?? []).map {
                try ServerFixture.payload($0)["transactionId"] as! String
            }
        }
        let first = try await fixture.api("GET", "/inApps/v2/history/\(pro.transactionID)")
        #expect(first.status == 200)
        #expect(try first.json()["hasMore"] as? Bool == true)
        #expect(try first.json()["bundleId"] as? String == "com.storefront.demo")
        #expect(try first.json()["appAppleId"] as? Int == Int(LocalStoreSettings.defaultAppAppleID))
        #expect(try ids(first) == Array(bought.prefix(20)))
        let revision = try #require(try first.json()["revision"] as? String)
        let second = try await fixture.api("GET", "/inApps/v2/history/\(pro.transactionID)?revision=\(revision)")
        #expect(try ids(second) == Array(bought.suffix(3)) + [pro.transactionID])
        #expect(try second.json()["hasMore"] as? Bool == false)

        let descending = try await fixture.api("GET", "/inApps/v2/history/\(pro.transactionID)?sort=DESCENDING")
        #expect(try ids(descending).first == pro.transactionID)
        let onlyPro = try await fixture.api("GET", "/inApps/v2/history/\(pro.transactionID)?productType=NON_CONSUMABLE")
        #expect(try ids(onlyPro) == [pro.transactionID])
        let byID = try await fixture.api(
            "GET", "/inApps/v2/history/\(pro.transactionID)?productId=\(ServerFixture.pro)&productId=none")
        #expect(try ids(byID) == [pro.transactionID])
        let revoked = try await fixture.api("GET", "/inApps/v2/history/\(pro.transactionID)?revoked=true")
        #expect(try ids(revoked) == [bought[0]])
        let family = try await fixture.api(
            "GET", "/inApps/v2/history/\(pro.transactionID)?inAppOwnershipType=FAMILY_SHARED")
        #expect(try ids(family) == [])
        let ms = Int64(pro.purchaseDate.timeIntervalSince1970 * 1000)
        let dated = try await fixture.api(
            "GET", "/inApps/v2/history/\(pro.transactionID)?startDate=\(ms)&endDate=\(ms + 1)")
        #expect(try ids(dated) == [pro.transactionID])

        // v1 leaves out finished consumables that were not refunded.
        let v1 = try await fixture.api("GET", "/inApps/v1/history/\(pro.transactionID)")
        #expect(try ids(v1) == [bought[0], pro.transactionID])

        for (query, code) in [
            ("sort=UP", 4_000_021), ("productType=GAME", 4_000_022), ("revoked=maybe", 4_000_030),
            ("startDate=x", 4_000_015), ("endDate=-5", 4_000_016), ("startDate=10&endDate=5", 4_000_013),
            ("inAppOwnershipType=MINE", 4_000_026), ("revision=nonsense", 4_000_005),
        ] {
            let answer = try await fixture.api("GET", "/inApps/v2/history/\(pro.transactionID)?\(query)")
            #expect(answer.status == 400, "\(query)")
            #expect(try answer.json()["errorCode"] as? Int == code, "\(query)")
        }
        await fixture.close()
    }

    /// `startDate`/`endDate` select on the purchase date in the milliseconds its JWS shows
    /// (Apple: purchaseDate >= startDate and < endDate), whatever finer time the store keeps.
    @Test func historyDatesCompareTheMillisecondsTheSignedTransactionShows() async throws {
        let fixture = try await ServerFixture()
        var bought: [(id: String, milliseconds: Int)] = []
        for offset in [0.0004, 0.0002, 0.0005, 0.00049] {
            fixture.clock.advance(by: offset)
            let t = try await fixture.buy(ServerFixture.coins)
            let signed = try ServerFixture.payload(try #require(t.signedTransaction))
            bought.append((t.transactionID, try #require(signed["purchaseDate"] as? Int)))
        }
        for (id, ms) in bought {
            let answer = try await fixture.api("GET", "/inApps/v2/history/\(id)?startDate=\(ms)&endDate=\(ms + 1)")
            let ids = try (try answer.json()["signedTransactions"] as? [String] ?? []).map {
                try ServerFixture.payload($0)["transactionId"] as? String
            }
            let expected = bought.filter { $0.milliseconds == ms }.map(\.id)
            #expect(ids == expected, "purchaseDate \(ms)")
            let before = try await fixture.api("GET", "/inApps/v2/history/\(id)?startDate=\(ms - 1)&endDate=\(ms)")
            #expect(
                try (before.json()["signedTransactions"] as? [String] ?? []).allSatisfy {
                    try ServerFixture.payload($0)["purchaseDate"] as? Int != ms
                }, "endDate is exclusive")
        }
        await fixture.close()
    }

    @Test func orderLookupFindsEveryPurchaseByItsOrderID() async throws {
        let fixture = try await ServerFixture()
        let t = try await fixture.buy(ServerFixture.pro)
        let orderID = try #require(OrderID.make(transactionID: t.transactionID))
        #expect(orderID.count == 10 && orderID.hasPrefix("M"))
        #expect(OrderID.transactionID(orderID: orderID) == t.transactionID)
        let answer = try await fixture.api("GET", "/inApps/v1/lookup/\(orderID)")
        #expect(try answer.json()["status"] as? Int == 0)
        let signed = try #require(try answer.json()["signedTransactions"] as? [String])
        #expect(try signed.map { try ServerFixture.payload($0)["transactionId"] as? String } == [t.transactionID])
        let unknown = try await fixture.api("GET", "/inApps/v1/lookup/MZZZZZZZZZ")
        #expect(try unknown.json()["status"] as? Int == 1)
        let malformed = try await fixture.api("GET", "/inApps/v1/lookup/hello")
        #expect(try malformed.json()["status"] as? Int == 1)
        await fixture.close()
    }

    @Test func orderIDsAreABijectionOverTheStoresIDs() {
        var seen = Set<String>()
        for offset: UInt64 in [0, 1, 2, 3, 1000, 123_456_789, (1 << 45) - 1] {
            let id = String(2_000_000_000_000_001 + offset)
            let order = OrderID.make(transactionID: id)!
            #expect(seen.insert(order).inserted)
            #expect(OrderID.transactionID(orderID: order) == id)
        }
        #expect(OrderID.make(transactionID: "12") == nil)
    }

    @Test func refundHistoryListsRefundedTransactions() async throws {
        let fixture = try await ServerFixture()
        let a = try await fixture.buy(ServerFixture.coins)
        let b = try await fixture.buy(ServerFixture.pro)
        _ = try await fixture.store.transactionManager.refund(transactionID: b.transactionID)
        let answer = try await fixture.api("GET", "/inApps/v2/refund/lookup/\(a.transactionID)")
        let signed = try #require(try answer.json()["signedTransactions"] as? [String])
        let payloads = try signed.map(ServerFixture.payload)
        #expect(payloads.map { $0["transactionId"] as? String } == [b.transactionID])
        #expect(payloads.first?["revocationDate"] != nil)
        #expect(try answer.json()["hasMore"] as? Bool == false)
        // Pages of 20, in refund order, the revision continuing after the last one returned.
        var refunded = [b.transactionID]
        for _ in 0..<20 {
            let t = try await fixture.buy(ServerFixture.coins)
            try await fixture.store.transactionManager.refund(transactionID: t.transactionID)
            refunded.append(t.transactionID)
        }
        let first = try await fixture.api("GET", "/inApps/v2/refund/lookup/\(a.transactionID)")
        #expect(try first.json()["hasMore"] as? Bool == true)
        let firstIDs = try (try first.json()["signedTransactions"] as? [String] ?? []).map {
            try ServerFixture.payload($0)["transactionId"] as? String
        }
        #expect(firstIDs == refunded.prefix(20).map { $0 })
        let revision = try #require(try first.json()["revision"] as? String)
        let second = try await fixture.api("GET", "/inApps/v2/refund/lookup/\(a.transactionID)?revision=\(revision)")
        #expect(try second.json()["hasMore"] as? Bool == false)
        let secondIDs = try (try second.json()["signedTransactions"] as? [String] ?? []).map {
            try ServerFixture.payload($0)["transactionId"] as? String
        }
        #expect(secondIDs == [refunded.last])
        let bad = try await fixture.api("GET", "/inApps/v2/refund/lookup/\(a.transactionID)?revision=nonsense")
        #expect(try bad.json()["errorCode"] as? Int == 4_000_005)
        await fixture.close()
    }

    /// Apple's refund history lists refunds by revocation date, and a saved `revision` returns
    /// the refunds made after it, later refunds of older purchases included; a reversed refund
    /// is no refund (its transaction has no revocation date), until it is refunded again.
    @Test func refundHistoryRunsInRefundOrderAndARevisionReturnsLaterRefundsOfOlderPurchases() async throws {
        let fixture = try await ServerFixture()
        let a = try await fixture.buy(ServerFixture.coins).transactionID
        let b = try await fixture.buy(ServerFixture.pro).transactionID
        let c = try await fixture.buy(ServerFixture.coins).transactionID
        func refunds(_ revision: String? = nil) async throws -> (ids: [String], revision: String, hasMore: Bool) {
            let answer = try await fixture.api(
                "GET", "/inApps/v2/refund/lookup/\(a)" + (revision.map { "?revision=\($0)" } ?? ""))
            let json = try answer.json()
            let ids = try (json["signedTransactions"] as? [String] ?? []).map {
                try ServerFixture.payload($0)["transactionId"] as! String
            }
            return (ids, try #require(json["revision"] as? String), try #require(json["hasMore"] as? Bool))
        }
        func refund(_ id: String) async throws {
            fixture.clock.advance(by: 60)
            try await fixture.store.transactionManager.refund(transactionID: id)
        }
        try await refund(c)
        try await refund(a)
        let first = try await refunds()
        #expect(first.ids == [c, a], "by revocation date, not by purchase")
        #expect(!first.hasMore)
        #expect(try await refunds(first.revision).ids == [], "nothing refunded since")
        try await refund(b)
        let later = try await refunds(first.revision)
        #expect(later.ids == [b], "a later refund of an older purchase")
        fixture.clock.advance(by: 60)
        try await fixture.store.transactionManager.reverseRefund(transactionID: b)
        #expect(try await refunds().ids == [c, a], "a reversed refund is not listed")
        #expect(try await refunds(later.revision).ids == [])
        try await refund(b)
        #expect(try await refunds(later.revision).ids == [b], "refunded again, after the revision")
        #expect(try await refunds().ids == [c, a, b])
        await fixture.close()
    }

    @Test func subscriptionStatusesFilterByStatusAndCarryRenewalInfo() async throws {
        let fixture = try await ServerFixture()
        let sub = try await fixture.buy(ServerFixture.monthly)
        let answer = try await fixture.api("GET", "/inApps/v1/subscriptions/\(sub.transactionID)")
        #expect(answer.status == 200)
        let data = try #require(try answer.json()["data"] as? [[String: Any]])
        #expect(data.first?["subscriptionGroupIdentifier"] as? String == "G1")
        let last = try #require((data.first?["lastTransactions"] as? [[String: Any]])?.first)
        #expect(last["status"] as? Int == 1)
        #expect(last["originalTransactionId"] as? String == sub.originalTransactionID)
        let renewal = try ServerFixture.payload(try #require(last["signedRenewalInfo"] as? String))
        #expect(renewal["autoRenewProductId"] as? String == ServerFixture.monthly)
        #expect(renewal["renewalPrice"] as? Int == 2990)
        let expiredOnly = try await fixture.api("GET", "/inApps/v1/subscriptions/\(sub.transactionID)?status=2")
        #expect((try expiredOnly.json()["data"] as? [Any])?.isEmpty == true)
        try await fixture.store.subscriptions.setBillingIssue(sub.transactionID, on: true)
        try await fixture.store.subscriptions.renew(sub.transactionID)
        let retry = try await fixture.api("GET", "/inApps/v1/subscriptions/\(sub.transactionID)?status=3&status=4")
        let items = try #require(
            (try retry.json()["data"] as? [[String: Any]])?.first?["lastTransactions"] as? [[String: Any]])
        #expect(items.first?["status"] as? Int == 3)
        #expect(try await fixture.api("GET", "/inApps/v1/subscriptions/\(sub.transactionID)?status=9").status == 400)
        await fixture.close()
    }

    /// Renewal info's `renewalDate` is always there: the latest period's end (its transaction's
    /// `expiresDate`), with auto-renew off and after a refund too.
    @Test func statusesCarryTheRenewalDateWhenAutoRenewIsOffAndAfterARefund() async throws {
        let fixture = try await ServerFixture()
        let sub = try await fixture.buy(ServerFixture.monthly)
        let end = try #require(sub.expiresDate)
        func renewalDate() async throws -> Int? {
            let answer = try await fixture.api("GET", "/inApps/v1/subscriptions/\(sub.transactionID)")
            let data = try #require(try answer.json()["data"] as? [[String: Any]])
            let last = try #require((data.first?["lastTransactions"] as? [[String: Any]])?.first)
            return try ServerFixture.payload(try #require(last["signedRenewalInfo"] as? String))["renewalDate"] as? Int
        }
        let milliseconds = Int(end.appStoreMilliseconds)
        #expect(try await renewalDate() == milliseconds)
        try await fixture.store.subscriptions.setAutoRenew(sub.transactionID, on: false)
        #expect(try await renewalDate() == milliseconds, "auto-renew off")
        fixture.clock.advance(by: 60)
        try await fixture.store.transactionManager.refund(transactionID: sub.transactionID)
        #expect(try await renewalDate() == milliseconds, "refunded: the period's end, not the refund's date")
        await fixture.close()
    }

    @Test func extendingMovesTheRenewalDateForTheAppAndTheStore() async throws {
        let fixture = try await ServerFixture()
        let sub = try await fixture.buy(ServerFixture.monthly)
        let end = try #require(sub.expiresDate)
        let body: [String: Any] = ["extendByDays": 7, "extendReasonCode": 1, "requestIdentifier": "r-1"]
        let answer = try await fixture.api(
            "PUT", "/inApps/v1/subscriptions/extend/\(sub.originalTransactionID)", body: body)
        #expect(answer.status == 200)
        let json = try answer.json()
        #expect(json["success"] as? Bool == true)
        let effective = try #require(json["effectiveDate"] as? Int)
        #expect(effective == Int((end.timeIntervalSince1970 + 7 * 86_400) * 1000))
        let lifecycle = try #require(try await fixture.store.subscriptions.all().first)
        #expect(lifecycle.periodEnd == end.addingTimeInterval(7 * 86_400))
        let stored = try #require(
            try await fixture.store.transactionManager.history().first { $0.transactionID == sub.transactionID })
        #expect(stored.expiresDate == end.addingTimeInterval(7 * 86_400))
        // The same request identifier again does not extend twice.
        _ = try await fixture.api("PUT", "/inApps/v1/subscriptions/extend/\(sub.originalTransactionID)", body: body)
        #expect(try await fixture.store.subscriptions.all().first?.periodEnd == end.addingTimeInterval(7 * 86_400))
        _ = try await fixture.api(
            "PUT", "/inApps/v1/subscriptions/extend/\(sub.originalTransactionID)",
            body: ["extendByDays": 1, "extendReasonCode": 0, "requestIdentifier": "r-2"])
        let third = try await fixture.api(
            "PUT", "/inApps/v1/subscriptions/extend/\(sub.originalTransactionID)",
            body: ["extendByDays": 1, "extendReasonCode": 0, "requestIdentifier": "r-3"])
        #expect(third.status == 403)
        #expect(try third.json()["errorCode"] as? Int == 4_030_005)
        for (bad, code) in [
            (["extendByDays": 91, "extendReasonCode": 1, "requestIdentifier": "x"] as [String: Any], 4_000_009),
            (["extendByDays": "7", "extendReasonCode": 1, "requestIdentifier": "x"], 4_000_009),
            (["extendByDays": 7, "extendReasonCode": 4, "requestIdentifier": "x"], 4_000_010),
            (["extendByDays": 7, "extendReasonCode": 1], 4_000_011),
        ] {
            let answer = try await fixture.api(
                "PUT", "/inApps/v1/subscriptions/extend/\(sub.originalTransactionID)", body: bad)
            #expect(try answer.json()["errorCode"] as? Int == code)
        }
        let notJSON = try await fixture.client.send(
            "PUT", "/inApps/v1/subscriptions/extend/\(sub.originalTransactionID)",
            headers: ["Authorization": "Bearer \(try fixture.token())"], body: Data("{nope".utf8))
        #expect(try notJSON.json()["errorCode"] as? Int == 4_000_000)
        await fixture.close()
    }

    @Test func massExtensionExtendsActiveSubscribersAndReportsItsStatus() async throws {
        let fixture = try await ServerFixture()
        let sub = try await fixture.buy(ServerFixture.monthly)
        let end = try #require(sub.expiresDate)
        let answer = try await fixture.api(
            "POST", "/inApps/v1/subscriptions/extend/mass",
            body: [
                "extendByDays": 3, "extendReasonCode": 3, "requestIdentifier": "mass-1",
                "productId": ServerFixture.monthly,
                "storefrontCountryCodes": ["USA"],
            ])
        #expect(answer.status == 200)
        #expect(try answer.json()["requestIdentifier"] as? String == "mass-1")
        #expect(try await fixture.store.subscriptions.all().first?.periodEnd == end.addingTimeInterval(3 * 86_400))
        let status = try await fixture.api(
            "GET", "/inApps/v1/subscriptions/extend/mass/\(ServerFixture.monthly)/mass-1")
        #expect(try status.json()["complete"] as? Bool == true)
        #expect(try status.json()["succeededCount"] as? Int == 1)
        #expect(try status.json()["failedCount"] as? Int == 0)
        let unknown = try await fixture.api("GET", "/inApps/v1/subscriptions/extend/mass/\(ServerFixture.monthly)/nope")
        #expect(try unknown.json()["errorCode"] as? Int == 4_040_009)
        await fixture.close()
    }

    @Test func consumptionIsRecordedAndAppAccountTokensShowInSignedTransactions() async throws {
        let fixture = try await ServerFixture()
        let coins = try await fixture.buy(ServerFixture.coins)
        let v2 = try await fixture.api(
            "PUT", "/inApps/v2/transactions/consumption/\(coins.transactionID)",
            body: [
                "customerConsented": true, "sampleContentProvided": false, "deliveryStatus": "DELIVERED",
                "consumptionPercentage": 50000,
            ])
        #expect(v2.status == 202)
        let v1 = try await fixture.api(
            "PUT", "/inApps/v1/transactions/consumption/\(coins.transactionID)",
            body: [
                "customerConsented": true, "consumptionStatus": 2, "platform": 1, "sampleContentProvided": false,
                "deliveryStatus": 0,
                "appAccountToken": "", "accountTenure": 1, "playTime": 2, "lifetimeDollarsRefunded": 0,
                "lifetimeDollarsPurchased": 3,
                "userStatus": 1,
            ])
        #expect(v1.status == 202)
        let records = try await fixture.store.server.snapshot().consumption(transactionID: coins.transactionID)
        #expect(records.map(\.version) == [2, 1])
        #expect(records.first?.fields["deliveryStatus"] == "\"DELIVERED\"")
        let refused = try await fixture.api(
            "PUT", "/inApps/v2/transactions/consumption/\(coins.transactionID)",
            body: [
                "customerConsented": false, "sampleContentProvided": false, "deliveryStatus": "DELIVERED",
            ])
        #expect(try refused.json()["errorCode"] as? Int == 4_000_035)

        let token = UUID()
        let set = try await fixture.api(
            "PUT", "/inApps/v1/transactions/\(coins.transactionID)/appAccountToken",
            body: ["appAccountToken": token.uuidString])
        #expect(set.status == 200)
        let info = try await fixture.api("GET", "/inApps/v1/transactions/\(coins.transactionID)")
        let payload = try ServerFixture.payload(try #require(try info.json()["signedTransactionInfo"] as? String))
        #expect(payload["appAccountToken"] as? String == token.uuidString.lowercased())
        let bad = try await fixture.api(
            "PUT", "/inApps/v1/transactions/\(coins.transactionID)/appAccountToken", body: ["appAccountToken": "nope"])
        #expect(try bad.json()["errorCode"] as? Int == 4_000_183)
        await fixture.close()
    }

    @Test func appTransactionInfoIsSignedForTheApp() async throws {
        let fixture = try await ServerFixture()
        let t = try await fixture.buy(ServerFixture.pro)
        let answer = try await fixture.api("GET", "/inApps/v1/transactions/appTransactions/\(t.transactionID)")
        let payload = try ServerFixture.payload(try #require(try answer.json()["signedAppTransactionInfo"] as? String))
        #expect(payload["bundleId"] as? String == "com.storefront.demo")
        #expect(payload["receiptType"] as? String == "Sandbox")
        let appTransactionID = try fixture.store.server.appTransactionID()
        #expect(payload["appTransactionId"] as? String == appTransactionID)
        #expect(payload["deviceVerification"] == nil)
        let transaction = try ServerFixture.payload(try #require(t.signedTransaction))
        #expect(transaction["appTransactionId"] as? String == appTransactionID)
        let byItsOwnID = try await fixture.api("GET", "/inApps/v1/transactions/appTransactions/\(appTransactionID)")
        #expect(byItsOwnID.status == 200)
        let unknown = try await fixture.api("GET", "/inApps/v1/transactions/appTransactions/9999999999999999")
        #expect(try unknown.json()["errorCode"] as? Int == 4_040_010)
        await fixture.close()
    }
}
