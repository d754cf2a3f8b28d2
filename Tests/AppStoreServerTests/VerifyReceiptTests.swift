import Crypto
import Foundation
import LocalAppStore
import Receipts
import StoreCore
import TestSupport
import Testing

@testable import AppStoreServer

@Suite struct VerifyReceiptTests {
    func post(_ fixture: ServerFixture, _ body: Any, to client: HTTPClient? = nil) async throws -> [String: Any] {
        let answer = try await (client ?? fixture.client).send(
            "POST", "/verifyReceipt", headers: ["Content-Type": "application/json"],
            body: try JSONSerialization.data(withJSONObject: body))
        #expect(answer.status == 200)
        return try answer.json()
    }

    /// A receipt for the store's account under the store's chain, of a given type.
    func receipt(
        _ fixture: ServerFixture, type: ReceiptType, transactions: [StoreCore.Transaction]? = nil
    ) async throws -> Data {
        let base = try await fixture.store.receipts.receiptIssuer()
        var configuration = base.configuration
        configuration.environment =
            switch type {
            case .production: .production
            case .xcode: .xcode
            default: .sandbox
            }
        let issuer = LocalReceiptIssuer(authority: base.authority, configuration: configuration)
        var all = transactions ?? []
        if transactions == nil { all = try await fixture.store.transactionManager.history() }
        return try issuer.issueReceipt(transactions: all, finishedTransactionIDs: [], now: fixture.clock.now)
    }

    @Test func aValidReceiptGetsStatus0WithApplesMembers() async throws {
        let fixture = try await ServerFixture()
        let sub = try await fixture.buy(ServerFixture.monthly)
        let pro = try await fixture.buy(ServerFixture.pro)
        let data = try #require(await fixture.store.appReceipt())
        let json = try await post(
            fixture, ["receipt-data": data.base64EncodedString(), "exclude-old-transactions": true])
        #expect(json["status"] as? Int == 0)
        #expect(json["environment"] as? String == "Sandbox")
        let receipt = try #require(json["receipt"] as? [String: Any])
        #expect(receipt["bundle_id"] as? String == "com.storefront.demo")
        let inApp = try #require(receipt["in_app"] as? [[String: Any]])
        #expect(Set(inApp.compactMap { $0["transaction_id"] as? String }) == [sub.transactionID, pro.transactionID])
        let purchase = try #require(inApp.first { $0["transaction_id"] as? String == pro.transactionID })
        #expect(purchase["purchase_date_ms"] as? String == String(Int64(pro.purchaseDate.timeIntervalSince1970 * 1000)))
        #expect((purchase["purchase_date"] as? String)?.hasSuffix(" Etc/GMT") == true)
        let latest = try #require(json["latest_receipt_info"] as? [[String: Any]])
        #expect(latest.map { $0["transaction_id"] as? String } == [sub.transactionID])
        let pending = try #require(json["pending_renewal_info"] as? [[String: Any]])
        #expect(pending.first?["auto_renew_status"] as? String == "1")
        #expect(pending.first?["auto_renew_product_id"] as? String == ServerFixture.monthly)
        #expect((json["latest_receipt"] as? String)?.isEmpty == false)
        await fixture.close()
    }

    @Test func badRequestsGetApplesStatusCodesAndChangeNothing() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy(ServerFixture.pro)
        let good = try #require(await fixture.store.appReceipt())
        let before = try fixture.stateFiles()
        #expect(try await post(fixture, ["receipt": "x"])["status"] as? Int == 21002)
        #expect(try await post(fixture, ["receipt-data": "!!!"])["status"] as? Int == 21002)
        #expect(
            try await post(fixture, ["receipt-data": Data("not a receipt".utf8).base64EncodedString()])["status"]
                as? Int == 21002)
        let get = try await fixture.client.send("GET", "/verifyReceipt")
        #expect(try get.json()["status"] as? Int == 21000)

        // Signed by another root: not authenticated.
        let foreignDirectory = fixture.directory.appendingPathComponent("foreign")
        let foreign = try CertificateAuthority.loadOrCreate(in: foreignDirectory, now: fixture.clock.now)
        let issuer = LocalReceiptIssuer(
            authority: foreign, configuration: try await fixture.store.receipts.receiptIssuer().configuration)
        let forged = try issuer.issueReceipt(
            transactions: try await fixture.store.transactionManager.history(), finishedTransactionIDs: [],
            now: fixture.clock.now)
        #expect(try await post(fixture, ["receipt-data": forged.base64EncodedString()])["status"] as? Int == 21003)

        // Purchases this store never made: the account is not found.
        let stranger = StoreCore.Transaction(
            transactionID: "2999999999999999", productID: ServerFixture.pro, productType: .nonConsumable,
            payment: Payment(productID: ServerFixture.pro), state: .purchased, purchaseDate: fixture.clock.now)
        let strangers = try await receipt(fixture, type: .xcode, transactions: [stranger])
        #expect(try await post(fixture, ["receipt-data": strangers.base64EncodedString()])["status"] as? Int == 21010)

        #expect(try fixture.stateFiles() == before)
        try await fixture.store.settings.set(name: "shared-secret", value: "0123456789abcdef0123456789abcdef")
        #expect(
            try await post(fixture, ["receipt-data": good.base64EncodedString(), "password": "wrong"])["status"] as? Int
                == 21004)
        #expect(try await post(fixture, ["receipt-data": good.base64EncodedString()])["status"] as? Int == 21004)
        #expect(
            try await post(
                fixture, ["receipt-data": good.base64EncodedString(), "password": "0123456789abcdef0123456789abcdef"])[
                    "status"] as? Int == 0)
        await fixture.close()
    }

    @Test func environmentsRedirect() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy(ServerFixture.monthly)
        let production = try AppStoreServer(
            store: fixture.store, credentials: fixture.credentials, configuration: .init(environment: .production))
        let productionClient = HTTPClient(port: production.port)
        let sandboxReceipt = try await receipt(fixture, type: .productionSandbox)
        let productionReceipt = try await receipt(fixture, type: .production)
        #expect(
            try await post(fixture, ["receipt-data": sandboxReceipt.base64EncodedString()], to: productionClient)[
                "status"] as? Int == 21007)
        #expect(
            try await post(fixture, ["receipt-data": productionReceipt.base64EncodedString()])["status"] as? Int
                == 21008)
        let accepted = try await post(
            fixture, ["receipt-data": productionReceipt.base64EncodedString()], to: productionClient)
        #expect(accepted["status"] as? Int == 0)
        #expect(accepted["environment"] as? String == "Production")
        // Production names the app by its Apple ID; Apple's sandbox answers 0 (see the refund test).
        let appAppleID = try await fixture.store.settings.current().appAppleID
        #expect(appAppleID != 0)
        #expect((accepted["receipt"] as? [String: Any])?["adam_id"] as? Int64 == appAppleID)
        await production.stop()
        await fixture.close()
    }

    /// A transaction bought with an offer code names the code's offer in `latest_receipt_info`
    /// (`offer_code_ref_name`, the offer's reference name), as Apple's does; others do not.
    @Test func aCodesTransactionNamesItsOfferCodeReferenceName() {
        let code = StoreCore.Transaction(
            transactionID: "7", productID: "com.example.coins", productType: .consumable,
            payment: Payment(productID: "com.example.coins", offerCode: "ABCDEFGHJKLM"), state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 1_000), offerType: .code, offerID: "Code: coins free")
        #expect(LegacyReceiptJSON.latest(code)["offer_code_ref_name"] as? String == "Code: coins free")
        #expect(LegacyReceiptJSON.latest(code)["promotional_offer_id"] == nil)
        var promotional = code
        promotional.offerType = .promotional
        promotional.offerID = "promo.spring"
        #expect(LegacyReceiptJSON.latest(promotional)["offer_code_ref_name"] == nil)
        #expect(LegacyReceiptJSON.latest(promotional)["promotional_offer_id"] as? String == "promo.spring")
    }

    /// A refunded purchase says why in the receipt's `in_app` as in `latest_receipt_info`, and
    /// the sandbox names no app (`adam_id` and `app_item_id` are 0), as Apple's sandbox answers.
    @Test func aRefundedPurchaseSaysWhyInTheReceiptAndTheSandboxNamesNoApp() async throws {
        let fixture = try await ServerFixture()
        let pro = try await fixture.buy(ServerFixture.pro)
        let monthly = try await fixture.buy(ServerFixture.monthly)
        fixture.clock.advance(by: 60)
        _ = try await fixture.store.transactionManager.refund(transactionID: pro.transactionID, reason: 1)
        let data = try #require(await fixture.store.appReceipt())
        let json = try await post(fixture, ["receipt-data": data.base64EncodedString()])
        #expect(json["status"] as? Int == 0)
        let receipt = try #require(json["receipt"] as? [String: Any])
        #expect(receipt["adam_id"] as? Int == 0)
        #expect(receipt["app_item_id"] as? Int == 0)
        let inApp = try #require(receipt["in_app"] as? [[String: Any]])
        let refunded = try #require(inApp.first { $0["transaction_id"] as? String == pro.transactionID })
        let latest = try #require(
            (json["latest_receipt_info"] as? [[String: Any]])?.first {
                $0["transaction_id"] as? String == pro.transactionID
            })
        #expect(refunded["cancellation_reason"] as? String == "1")
        #expect(latest["cancellation_reason"] as? String == "1")
        #expect(refunded["cancellation_date_ms"] as? String == latest["cancellation_date_ms"] as? String)
        #expect(refunded["cancellation_date_ms"] != nil)
        let kept = try #require(inApp.first { $0["transaction_id"] as? String == monthly.transactionID })
        #expect(kept["cancellation_reason"] == nil)
        #expect(kept["cancellation_date_ms"] == nil)
        await fixture.close()
    }

    /// Apple's 21006 is for iOS 6-style transaction receipts only: a valid app receipt whose
    /// subscriptions have all expired is answered 0, with the expired period in it.
    @Test func anAppReceiptWithOnlyAnExpiredSubscriptionGetsStatus0() async throws {
        let fixture = try await ServerFixture()
        let sub = try await fixture.buy(ServerFixture.monthly)
        fixture.clock.advance(by: 60)
        try await fixture.store.subscriptions.expire(ServerFixture.monthly)
        let data = try #require(await fixture.store.appReceipt())
        let json = try await post(fixture, ["receipt-data": data.base64EncodedString()])
        #expect(json["status"] as? Int == 0)
        let inApp = try #require((json["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])
        #expect(inApp.map { $0["transaction_id"] as? String } == [sub.transactionID])
        let latest = try #require((json["latest_receipt_info"] as? [[String: Any]])?.first)
        #expect(
            latest["expires_date_ms"] as? String
                == String(Int64((fixture.clock.now.timeIntervalSince1970 * 1000).rounded())))
        let pending = try #require((json["pending_renewal_info"] as? [[String: Any]])?.first)
        #expect(pending["expiration_intent"] as? String == "1")
        await fixture.close()
    }

    @Test func theEnginesRemoteVerifierFallsBackBetweenTwoLocalServersAsAgainstApple() async throws {
        let fixture = try await ServerFixture()
        let t = try await fixture.buy(ServerFixture.pro)
        let production = try AppStoreServer(
            store: fixture.store, credentials: fixture.credentials, configuration: .init(environment: .production))
        let productionURL = production.baseURL.appendingPathComponent("verifyReceipt")
        let sandboxURL = fixture.server.baseURL.appendingPathComponent("verifyReceipt")
        let verifier = RemoteReceiptVerifier(
            configuration: .init(
                productionURL: productionURL, sandboxURL: sandboxURL, bundleID: "com.storefront.demo", timeout: 30))
        // A sandbox receipt: production says 21007, the verifier asks the sandbox, which accepts.
        let sandboxReceipt = try await receipt(fixture, type: .productionSandbox)
        guard case .success(let viaSandbox) = await verifier.verifyReceipt(sandboxReceipt) else {
            Issue.record("the sandbox receipt was not accepted after the 21007 redirect")
            return
        }
        #expect(viaSandbox.environment == "Sandbox")
        #expect(await verifier.verify(t, receipt: sandboxReceipt) == .valid)
        // A production receipt sent to the sandbox first: 21008, then production accepts.
        let sandboxFirst = RemoteReceiptVerifier(
            configuration: .init(
                productionURL: productionURL, sandboxURL: sandboxURL, bundleID: "com.storefront.demo", timeout: 30,
                startWithSandbox: true))
        let productionReceipt = try await receipt(fixture, type: .production)
        guard case .success(let viaProduction) = await sandboxFirst.verifyReceipt(productionReceipt) else {
            Issue.record("the production receipt was not accepted after the 21008 redirect")
            return
        }
        #expect(viaProduction.environment == "Production")
        // A forged receipt is invalid, not retried.
        let foreign = try CertificateAuthority.loadOrCreate(
            in: fixture.directory.appendingPathComponent("foreign"), now: fixture.clock.now)
        let forged = try LocalReceiptIssuer(
            authority: foreign, configuration: try await fixture.store.receipts.receiptIssuer().configuration
        )
        .issueReceipt(transactions: [t], finishedTransactionIDs: [], now: fixture.clock.now)
        guard case .invalid = await verifier.verify(t, receipt: forged) else {
            Issue.record("a forged receipt was not invalid")
            return
        }
        await production.stop()
        await fixture.close()
    }
}
