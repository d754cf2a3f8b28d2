import Catalog
import Foundation
import Receipts
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

@Suite(.waitsOnProcesses) struct LocalReceiptIssuerTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    static let device: [UInt8] = Array(200..<216)
    static let configuration = LocalReceiptIssuer.Configuration(
        bundleID: "com.example.storefront", appVersion: "7", deviceIdentifier: device)

    struct Fixture {
        let scratch: TemporaryDirectory
        var directory: URL { scratch.url.appendingPathComponent("state") }
        let issuer: LocalReceiptIssuer
        init() throws {
            scratch = try TemporaryDirectory(prefix: "issuer")
            issuer = try LocalReceiptIssuer.loadOrCreate(
                stateDirectory: scratch.url.appendingPathComponent("state"),
                configuration: LocalReceiptIssuerTests.configuration,
                now: LocalReceiptIssuerTests.now.addingTimeInterval(-3600))
        }
    }

    static func transaction(
        _ id: String, _ product: String, _ type: ProductType, state: TransactionState = .purchased,
        revoked: Date? = nil, price: Decimal? = nil, original: String? = nil
    ) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: original, productID: product, productType: type,
            payment: Payment(productID: product, applicationUsername: "7E3FB20B-4CDB-47CC-936D-99D65F608138"),
            state: state,
            purchaseDate: now.addingTimeInterval(-600),
            expiresDate: type == .autoRenewable ? now.addingTimeInterval(3600) : nil,
            revocationDate: revoked, revocationReason: revoked == nil ? nil : 1,
            webOrderLineItemID: type == .autoRenewable ? "9000" : nil, price: price,
            currencyCode: price == nil ? nil : "USD",
            storefront: "USA", subscriptionGroupID: type == .autoRenewable ? "group" : nil)
    }

    static let transactions: [Transaction] = [
        transaction("1", "coins", .consumable),  // unfinished consumable: listed
        transaction("2", "coins", .consumable),  // finished consumable: dropped
        transaction("3", "sword", .nonConsumable),  // finished non-consumable: listed
        // refunded: listed, cancelled
        transaction("4", "shield", .nonConsumable, revoked: now.addingTimeInterval(-60)),
        transaction("5", "pro.monthly", .autoRenewable, price: Decimal(string: "1.99")),
        transaction("6", "sword", .nonConsumable, state: .failed),  // never listed
        transaction("7", "sword", .nonConsumable, state: .deferred),  // never listed
        transaction("8", "sword", .nonConsumable, state: .restored, original: "3"),
    ]

    /// `is_trial_period` follows the offer's payment mode: a paid introductory offer whose price
    /// rounds to 0 in the storefront's currency (0.49 in KRW) is no trial.
    @Test func aTrialIsAFreeOfferNotAZeroPrice() {
        var intro = Self.transaction("9", "pro.monthly", .autoRenewable, price: 0)
        intro.offerType = .introductory
        let week = SubscriptionPeriod(value: 1, unit: .week)
        let paid = StoreKitConfiguration.SubscriptionOffer(
            paymentMode: .payAsYouGo, period: week, price: Decimal(string: "0.49")!)
        let free = StoreKitConfiguration.SubscriptionOffer(paymentMode: .free, period: week)
        #expect(LocalReceiptIssuer.inAppPurchase(intro, offer: paid).isInTrialPeriod == false)
        #expect(LocalReceiptIssuer.inAppPurchase(intro, offer: free).isInTrialPeriod == true)
        #expect(
            LocalReceiptIssuer.inAppPurchase(intro).isInTrialPeriod == true,
            "without the catalog, a price of 0 is the trial")
        #expect(LocalReceiptIssuer.inAppPurchase(intro, offer: paid).isInIntroOfferPeriod == true)
    }

    @Test func receiptListsWhatTheAppStoreWouldAndVerifies() async throws {
        let fixture = try Fixture()
        let data = try fixture.issuer.issueReceipt(
            transactions: Self.transactions, finishedTransactionIDs: ["2", "3"], now: Self.now)
        let receiptFile = fixture.directory.appendingPathComponent("receipt")
        try LocalReceiptIssuer.write(data, to: receiptFile)
        let rootFile = fixture.directory.appendingPathComponent("root.cer")
        try fixture.issuer.exportRoot(to: rootFile)

        let verifier = try AppReceiptVerifier(
            configuration: .init(
                trustedRoots: [try Data(contentsOf: rootFile)], bundleID: "com.example.storefront", appVersion: "7",
                deviceIdentifier: Self.device))
        let onDisk = try Data(contentsOf: receiptFile)
        guard case .valid(let receipt, _) = verifier.check(onDisk, transactionID: "1") else {
            Issue.record("\(verifier.check(onDisk, transactionID: "1"))")
            return
        }
        #expect(receipt.inApp.map(\.transactionID) == ["1", "3", "4", "5", "8"])
        #expect(receipt.receiptType == .productionSandbox, "the default environment is Sandbox")
        #expect(receipt.appItemID == 0, "the sandbox's receipts carry no app Apple ID")
        #expect(receipt.inApp.first { $0.transactionID == "4" }?.cancellationDate == Self.now.addingTimeInterval(-60))
        #expect(receipt.inApp.first { $0.transactionID == "5" }?.productType == .autoRenewableSubscription)
        #expect(receipt.inApp.first { $0.transactionID == "5" }?.webOrderLineItemID == 9000)
        #expect(receipt.inApp.first { $0.transactionID == "8" }?.originalTransactionID == "3")
        for id in ["1", "5"] {
            let transaction = try #require(Self.transactions.first { $0.transactionID == id })
            #expect(await verifier.verify(transaction, receipt: onDisk) == .valid)
        }
        for id in ["2", "6"] {
            let transaction = try #require(Self.transactions.first { $0.transactionID == id })
            guard case .invalid = await verifier.verify(transaction, receipt: onDisk) else {
                Issue.record("\(id) must not verify")
                return
            }
        }
        guard case .invalid(.cancelled) = verifier.check(onDisk, transactionID: "4") else {
            Issue.record("refund")
            return
        }
    }

    @Test func openSSLVerifiesTheWrittenReceiptWithTheExportedRoot() throws {
        let fixture = try Fixture()
        let receiptFile = fixture.directory.appendingPathComponent("receipt")
        try LocalReceiptIssuer.write(
            try fixture.issuer.issueReceipt(transactions: Self.transactions, finishedTransactionIDs: [], now: Self.now),
            to: receiptFile)
        let rootDER = fixture.directory.appendingPathComponent("root.cer")
        try fixture.issuer.exportRoot(to: rootDER)
        let rootPEM = fixture.directory.appendingPathComponent("root.pem")
        #expect(try tool("openssl", ["x509", "-inform", "DER", "-in", rootDER.path, "-out", rootPEM.path]) == 0)
        #expect(
            try tool(
                "openssl",
                [
                    "cms", "-verify", "-inform", "DER", "-in", receiptFile.path, "-CAfile", rootPEM.path,
                    "-purpose", "any", "-attime", String(Int(Self.now.timeIntervalSince1970)), "-out", "/dev/null",
                ]) == 0)
    }

    @Test func chainIsKeptInTheStateDirectory() throws {
        let fixture = try Fixture()
        let again = try LocalReceiptIssuer.loadOrCreate(
            stateDirectory: fixture.directory, configuration: Self.configuration, now: Self.now)
        #expect(again.authority.root == fixture.issuer.authority.root)
        #expect(
            FileManager.default.fileExists(
                atPath: fixture.directory.appendingPathComponent("Certificates/root.pem").path))
    }

    @Test func signedTransactionCarriesTheTransaction() throws {
        let fixture = try Fixture()
        let transaction = try #require(Self.transactions.first { $0.transactionID == "5" })
        let jws = try fixture.issuer.signedTransaction(transaction, now: Self.now)
        let verifier = try SignedTransactionVerifier(
            configuration: .init(
                trustedRoots: [Data(fixture.issuer.authority.root.derRepresentation)],
                bundleID: "com.example.storefront",
                environments: [.sandbox]))
        let payload = try verifier.check(jws, transactionID: "5", productID: "pro.monthly").get()
        #expect(payload.price == 1990)
        #expect(payload.currency == "USD")
        #expect(payload.type == .autoRenewableSubscription)
        #expect(payload.inAppOwnershipType == .purchased)
        #expect(payload.signedDate == Self.now)
        #expect(payload.expiresDate == transaction.expiresDate)
        #expect(payload.subscriptionGroupIdentifier == "group")
        #expect(payload.appAccountToken == UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"))
        #expect(payload.storefront == "USA")
        #expect(payload.transactionReason == .purchase)
        let refunded = try #require(Self.transactions.first { $0.transactionID == "4" })
        let refundPayload = try verifier.check(try fixture.issuer.signedTransaction(refunded, now: Self.now)).get()
        #expect(refundPayload.revocationReason == .appIssue)
        #expect(refundPayload.revocationDate == refunded.revocationDate)
    }

    @Test func renewalInfoIsSigned() throws {
        let fixture = try Fixture()
        let info = RenewalInfo(
            originalTransactionID: "5", currentProductID: "pro.monthly", autoRenewProductID: "pro.yearly",
            willAutoRenew: true,
            expirationIntent: nil, isInBillingRetry: false, gracePeriodExpiresDate: nil,
            renewalDate: Self.now.addingTimeInterval(3600))
        let jws = try fixture.issuer.signedRenewalInfo(
            info, details: .init(renewalPrice: Decimal(string: "19.99"), currency: "USD"), now: Self.now)
        let payload = try #require(
            try JWSVerifier(trustedRoots: [fixture.issuer.authority.root.derRepresentation]).verifyRenewalInfo(jws)
                .payload)
        #expect(payload.autoRenewProductId == "pro.yearly")
        #expect(payload.autoRenewStatus == .on)
        #expect(payload.renewalPrice == 19_990)
        #expect(payload.currency == "USD")
        #expect(payload.environment == .sandbox)
    }

    private func tool(_ name: String, _ arguments: [String]) throws -> Int32 {
        try ChildProcess.run(.tool(name), arguments, standardOutput: .discard, standardError: .discard).status
    }
}
