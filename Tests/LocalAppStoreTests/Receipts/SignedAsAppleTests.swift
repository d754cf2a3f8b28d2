import Catalog
import Crypto
import Foundation
import Receipts
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

/// What the local store signs says what Apple's would: the environment and app Apple ID of the
/// settings, every field of a transaction, renewal info and app transaction, RSA receipts, and
/// OCSP answers for the certificates it names.
@Suite(.waitsOnProcesses, .timeLimit(.minutes(10)))
struct SignedAsAppleTests {
    static let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
    let directory: TemporaryDirectory
    /// A day ago, in whole seconds (signed items carry milliseconds): the chain must be valid
    /// at the wall clock's now too, where OCSP answers are dated.
    let clock = ManualClock(start: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded()))
    let catalog: StoreKitConfiguration

    init() throws {
        directory = try TemporaryDirectory()
        catalog = try StoreKitConfiguration.load(contentsOf: DemoCatalog.url)
    }

    func open() throws -> LocalAppStore { try makeStore(directory, catalog: catalog, clock: clock) }

    func verifier(_ store: LocalAppStore) async throws -> JWSVerifier {
        _ = try await store.receipts.receiptIssuer()
        return try JWSVerifier(trustedRoots: [Array(try Data(contentsOf: store.receipts.rootCertificateURL))])
    }

    func transaction(_ jws: String?, _ verifier: JWSVerifier) throws -> JWSTransactionDecodedPayload {
        let text = try #require(jws)
        return try #require(verifier.verifyTransaction(text).payload)
    }

    func usd(_ productID: String) throws -> Int64 {
        let product = try #require(catalog.product(id: productID))
        return NSDecimalNumber(decimal: catalog.price(for: product, in: .unitedStates).amount * 1000).int64Value
    }

    /// The store's app receipt (decoded) and its signed app transaction (verified), as the app
    /// would read them.
    func appItems(
        _ store: LocalAppStore, _ verifier: JWSVerifier
    ) async throws -> (receipt: AppReceipt, app: JWSAppTransactionDecodedPayload) {
        let stored = try #require(await store.appReceipt())
        let receipt = try ReceiptDecoder().decode(Array(stored))
        let jws = try await store.receipts.signedAppTransaction()
        return (receipt, try #require(verifier.verifyAppTransaction(jws).payload))
    }

    @Test func everyItemNamesTheEnvironmentTheSettingsSay() async throws {
        let store = try open()
        var reader = EventReader(await store.events())
        let bought = try await buy(store, &reader, DemoCatalog.coins)
        let verifier = try await verifier(store)
        #expect(try transaction(bought.signedTransaction, verifier).environment == .sandbox, "Sandbox by default")
        let (sandboxReceipt, sandboxApp) = try await appItems(store, verifier)
        #expect(sandboxReceipt.receiptType == .productionSandbox)
        #expect(sandboxReceipt.appItemID == 0)
        #expect(sandboxApp.receiptType == .sandbox)
        #expect(sandboxApp.appAppleId == nil, "Apple gives no app Apple ID in the sandbox")

        // Another process changes the settings; this one follows at its next look.
        let other = try open()
        try await other.settings.set(name: "environment", value: "production")
        try await other.settings.set(name: "app-apple-id", value: "1234567890")
        let history = try await store.transactionManager.history()
        #expect(try transaction(history[0].signedTransaction, verifier).environment == .production)
        let (receipt, app) = try await appItems(store, verifier)
        #expect(receipt.receiptType == .production)
        #expect(receipt.appItemID == 1_234_567_890)
        #expect(app.receiptType == .production)
        #expect(app.appAppleId == 1_234_567_890)

        try await store.settings.set(name: "environment", value: "Xcode")
        let xcode = try #require(await store.appReceipt())
        #expect(try ReceiptDecoder().decode(Array(xcode)).receiptType == .xcode)
        #expect(
            try transaction(try await store.transactionManager.history()[0].signedTransaction, verifier).environment
                == .xcode)
    }

    @Test func badSettingValuesAreRefusedNamingWhatIsAccepted() async throws {
        let store = try open()
        for (name, value, accepted) in [
            ("environment", "Staging", "Sandbox"), ("app-apple-id", "-4", "positive"),
            ("app-apple-id", "12ab", "positive"),
            ("server-url", "ftp://127.0.0.1:1", "http"), ("server-url", "http://127.0.0.1:8490/path", "without a path"),
        ] {
            await #expect {
                try await store.settings.set(name: name, value: value)
            } throws: { error in
                guard case .invalidSettingValue(let n, let v, let a) = error as? LocalAppStoreError else {
                    return false
                }
                return n == name && v == value && a.contains(accepted)
            }
        }
        try await store.settings.set(name: "server-url", value: "http://localhost:9000/")
        #expect(try await store.settings.current().ocspURL == "http://localhost:9000/ocsp")
    }

    @Test func settingsWrittenBeforeTheseExistedReadAsSandbox() throws {
        let old = #"{"latencyMilliseconds":0,"askToBuy":false,"paymentsAllowed":true,"interruptPurchases":false}"#
        let settings = try JSONDecoder().decode(LocalStoreSettings.self, from: Data(old.utf8))
        #expect(settings.environment == .sandbox)
        #expect(settings.appAppleID == LocalStoreSettings.defaultAppAppleID)
        #expect(settings.serverURL == LocalStoreSettings.defaultServerURL)
    }

    @Test func transactionsCarryEveryFieldApplesDo() async throws {
        let store = try open()
        var reader = EventReader(await store.events())
        let verifier = try await verifier(store)
        let download = try store.receipts.appDownload()

        let first = try await buy(store, &reader, DemoCatalog.plus, applicationUsername: Self.token)
        let trial = try transaction(first.signedTransaction, verifier)
        #expect(trial.transactionReason == .purchase)
        #expect(trial.storefront == "USA")
        #expect(trial.storefrontId == "143441")
        #expect(trial.appTransactionId == download.appTransactionID)
        #expect(trial.rawAppAccountToken == Self.token.lowercased(), "Apple sends the token lowercase")
        #expect(trial.offerType == .introductoryOffer)
        #expect(trial.offerDiscountType == .freeTrial)
        #expect(trial.offerPeriod == "P1W")
        #expect(trial.price == 0)
        #expect(trial.currency == "USD")
        #expect(trial.type == .autoRenewableSubscription)
        #expect(trial.inAppOwnershipType == .purchased)
        #expect(trial.bundleId == store.configuration.bundleID)
        #expect(trial.subscriptionGroupIdentifier == first.subscriptionGroupID)
        #expect(trial.webOrderLineItemId == first.webOrderLineItemID)
        #expect(trial.expiresDate == first.expiresDate)
        #expect(trial.signedDate == clock.now)
        #expect(trial.isUpgraded == nil, "Apple sends isUpgraded only when true")

        // The App Store renews: RENEWAL, at the product's price, the token carried over.
        let renewed = try #require(try await store.subscriptions.renew(first.transactionID))
        let renewal = try transaction(renewed.signedTransaction, verifier)
        #expect(renewed.transactionID != first.transactionID)
        #expect(renewal.transactionReason == .renewal)
        #expect(renewal.price == (try usd(DemoCatalog.plus)))
        #expect(renewal.offerType == nil && renewal.offerDiscountType == nil && renewal.offerPeriod == nil)
        #expect(renewal.rawAppAccountToken == Self.token.lowercased())

        // The customer upgrades: a PURCHASE, though it continues the same subscription.
        let upgrade = try await buy(store, &reader, DemoCatalog.pro)
        #expect(upgrade.originalTransactionID == first.originalTransactionID)
        let upgraded = try transaction(upgrade.signedTransaction, verifier)
        #expect(upgraded.transactionReason == .purchase)
        #expect(upgraded.price == (try usd(DemoCatalog.pro)))
        let replaced = try #require(
            try await store.transactionManager.history().first { $0.transactionID == renewed.transactionID })
        #expect(try transaction(replaced.signedTransaction, verifier).isUpgraded == true)

        // A refund returns the transaction refunded, signed.
        let refunded = try await store.transactionManager.refund(transactionID: upgrade.transactionID, reason: 1)
        let revoked = try transaction(refunded.signedTransaction, verifier)
        #expect(revoked.revocationDate == clock.now)
        #expect(revoked.revocationReason == .appIssue)

        let coins = try await buy(store, &reader, DemoCatalog.coins)
        let consumable = try transaction(coins.signedTransaction, verifier)
        #expect(consumable.type == .consumable)
        #expect(consumable.price == (try usd(DemoCatalog.coins)))
        #expect(consumable.quantity == 1)
        #expect(consumable.offerDiscountType == nil && consumable.rawAppAccountToken == nil)
        #expect(consumable.appTransactionId == download.appTransactionID)
    }

    @Test func renewalInfoCarriesThePriceCurrencyAndTheRunStart() async throws {
        let store = try open()
        var reader = EventReader(await store.events())
        let verifier = try await verifier(store)
        let first = try await buy(store, &reader, DemoCatalog.plus, applicationUsername: Self.token)
        _ = try await store.subscriptions.renew(first.transactionID)
        let info = try #require(await store.renewalInfo().first)
        let signedInfo = try #require(info.signedRenewalInfo)
        let payload = try #require(verifier.verifyRenewalInfo(signedInfo).payload)
        #expect(payload.originalTransactionId == first.originalTransactionID)
        #expect(payload.productId == DemoCatalog.plus)
        #expect(payload.autoRenewProductId == DemoCatalog.plus)
        #expect(payload.autoRenewStatus == .on)
        #expect(payload.renewalPrice == (try usd(DemoCatalog.plus)))
        #expect(payload.currency == "USD")
        #expect(payload.recentSubscriptionStartDate == first.purchaseDate, "the run began with the first period")
        #expect(payload.renewalDate == info.renewalDate)
        #expect(payload.appTransactionId == (try store.receipts.appDownload().appTransactionID))
        #expect(payload.rawAppAccountToken == Self.token.lowercased())
        #expect(payload.environment == .sandbox)
        #expect(payload.signedDate == clock.now)
        #expect(payload.isInBillingRetryPeriod == false)

        // Cancelled: no renewal, so no renewal price.
        _ = try await store.subscriptions.setAutoRenew(first.transactionID, on: false)
        let cancelled = try #require(await store.renewalInfo().first)
        let signedOff = try #require(cancelled.signedRenewalInfo)
        let off = try #require(verifier.verifyRenewalInfo(signedOff).payload)
        #expect(off.autoRenewStatus == .off)
        #expect(off.renewalPrice == nil && off.currency == nil)
    }

    @Test func theAppTransactionVerifiesTheDevice() async throws {
        let store = try open()
        let verifier = try await verifier(store)
        let download = try store.receipts.appDownload()
        let firstJWS = try await store.receipts.signedAppTransaction()
        let secondJWS = try await store.receipts.signedAppTransaction()
        let payload = try #require(verifier.verifyAppTransaction(firstJWS).payload)
        let again = try #require(verifier.verifyAppTransaction(secondJWS).payload)
        let nonce = try #require(payload.deviceVerificationNonce)
        #expect(nonce == nonce.lowercased() && UUID(uuidString: nonce) != nil)
        #expect(again.deviceVerificationNonce != nonce, "a fresh nonce each time")
        let device = try store.receipts.deviceIdentifier().uuidString.lowercased()
        let expected = try Digest.hash(.sha384, Array((nonce + device).utf8))
        #expect(payload.deviceVerification == Data(expected).base64EncodedString())
        #expect(payload.appTransactionId == download.appTransactionID)
        #expect(again.appTransactionId == download.appTransactionID)
        #expect(payload.originalPurchaseDate == download.originalPurchaseDate)
        #expect(payload.originalApplicationVersion == store.configuration.appVersion)
        #expect(payload.applicationVersion == store.configuration.appVersion)
        #expect(payload.bundleId == store.configuration.bundleID)
        #expect(payload.originalPlatform == .iOS)
        #expect(payload.signedDate == clock.now && payload.receiptCreationDate == clock.now)
        #expect(download.appTransactionID.count == 18 && UInt64(download.appTransactionID) != nil)
        // Another account has its own app download.
        let other = try makeStore(
            directory, catalog: catalog, clock: clock, account: StoreAccount(id: "b/c", displayName: "B"))
        #expect(try other.receipts.appDownload().appTransactionID != download.appTransactionID)
    }

    @Test func receiptsAreSignedWithRSAAndJWSWithP256() async throws {
        let store = try open()
        var reader = EventReader(await store.events())
        let bought = try await buy(store, &reader, DemoCatalog.coins)
        let rsaKey = store.receipts.certificatesDirectoryURL.appendingPathComponent(
            CertificateAuthority.FileName.receiptSigningKey)
        #expect(!FileManager.default.fileExists(atPath: rsaKey.path), "no RSA key is made until a receipt is needed")
        let receipt = try #require(await store.appReceipt())
        #expect(FileManager.default.fileExists(atPath: rsaKey.path))
        let root = try X509Certificate.read(contentsOf: store.receipts.rootCertificateURL)
        let signed = try PKCS7.verify(Array(receipt), trustedRoots: [root], at: clock.now).get()
        #expect(!signed.signer.hasECKey, "receipts are RSA-signed, as Apple's and Xcode's")
        #expect(signed.signer.hasExtension(oid: "1.2.840.113635.100.6.11.1"))
        let leaf = try chain(of: bought.signedTransaction)[0]
        #expect(leaf.hasECKey)
    }

    @Test func theStoreAnswersOCSPForTheCertificatesItsItemsCarry() async throws {
        let store = try open()
        #expect(try status(store.receipts.respondToOCSP(Data([0x30, 0x00]))).contains("malformedrequest"))
        try await store.settings.set(name: "server-url", value: "http://127.0.0.1:9")
        var reader = EventReader(await store.events())
        let bought = try await buy(store, &reader, DemoCatalog.coins)
        let chain = try chain(of: bought.signedTransaction)
        #expect(chain[0].ocspResponderURLs == ["http://127.0.0.1:9/ocsp"])
        #expect(chain[1].ocspResponderURLs == ["http://127.0.0.1:9/ocsp"])
        let files = ["leaf", "intermediate", "root"].map { directory.url.appendingPathComponent("\($0).pem") }
        for (file, certificate) in zip(files, chain) {
            try certificate.pemRepresentation.write(to: file, atomically: true, encoding: .utf8)
        }
        for (subject, issuer) in [(files[0], files[1]), (files[1], files[2])] {
            let request = directory.url.appendingPathComponent("request.der")
            let response = directory.url.appendingPathComponent("response.der")
            #expect(
                try tool(["ocsp", "-issuer", issuer.path, "-cert", subject.path, "-no_nonce", "-reqout", request.path])
                    .status == 0)
            try store.receipts.respondToOCSP(try Data(contentsOf: request)).write(to: response)
            let answer = try tool([
                "ocsp", "-respin", response.path, "-issuer", issuer.path, "-cert", subject.path,
                "-CAfile", files[2].path, "-no_nonce",
            ])
            #expect(answer.status == 0 && answer.output.contains(": good"), "\(answer.output)")
        }
    }

    /// The certificates of a JWS's `x5c` header, leaf first.
    private func chain(of jws: String?) throws -> [X509Certificate] {
        struct Unreadable: Error {}
        guard let header = jws?.split(separator: ".").first, let bytes = Base64URL.decode(header),
            let x5c = try JSONDecoder().decode(JWSHeader.self, from: Data(bytes)).x5c
        else { throw Unreadable() }
        return try x5c.map { text in
            guard let der = Data(base64Encoded: text) else { throw Unreadable() }
            return try X509Certificate(der: Array(der))
        }
    }

    private func status(_ response: Data) throws -> String {
        let file = directory.url.appendingPathComponent("status.der")
        try response.write(to: file)
        return try tool(["ocsp", "-respin", file.path, "-resp_text", "-noverify"]).output
    }

    /// Runs the `openssl` tool with `arguments`.
    private func tool(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run(.tool("openssl"), arguments)
    }
}
