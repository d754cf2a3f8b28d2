import Foundation
import Receipts
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// The signature cache: one JWS per transaction version and identity, the issuer loaded on first use.
@Suite struct TransactionSignerTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    static let configuration = LocalReceiptIssuer.Configuration(
        bundleID: "com.example.storefront", appVersion: "1", deviceIdentifier: Array(0..<16))

    struct NoChain: Error {}
    static let settings = LocalStoreSettings()

    static func issuer(in directory: TemporaryDirectory) throws -> LocalReceiptIssuer {
        try LocalReceiptIssuer.loadOrCreate(
            stateDirectory: directory.url, configuration: configuration, now: now.addingTimeInterval(-3600))
    }

    static func verifier(_ issuer: LocalReceiptIssuer) throws -> SignedTransactionVerifier {
        try SignedTransactionVerifier(
            configuration: .init(
                trustedRoots: [Data(issuer.authority.root.derRepresentation)], bundleID: "com.example.storefront",
                environments: [.sandbox]))
    }

    static let transaction = StoreCore.Transaction(
        transactionID: "2000000000000001", productID: "com.test.pro", productType: .nonConsumable,
        payment: Payment(productID: "com.test.pro"), state: .purchased, purchaseDate: now.addingTimeInterval(-60),
        price: 9.99, currencyCode: "USD", storefront: "USA")

    @Test func aVersionKeepsItsSignatureAndAChangedVersionIsSignedAnew() throws {
        let directory = try TemporaryDirectory()
        let issuer = try Self.issuer(in: directory)
        // ECDSA is randomized: signing one version twice gives two JWS, so equal ones come from the cache.
        #expect(
            try issuer.signedTransaction(Self.transaction, now: Self.now)
                != issuer.signedTransaction(Self.transaction, now: Self.now))

        let signer = TransactionSigner()
        let first = try #require(
            signer.sign([Self.transaction], settings: Self.settings, now: Self.now) { _ in issuer }.first?
                .signedTransaction)
        let again = signer.sign([Self.transaction], settings: Self.settings, now: Self.now.addingTimeInterval(5)) { _ in
            throw NoChain()
        }
        #expect(again.first?.signedTransaction == first)
        // The JWS a transaction carries in is not part of its version.
        let carried = try #require(again.first)
        #expect(
            signer.sign([carried], settings: Self.settings, now: Self.now) { _ in throw NoChain() }.first?
                .signedTransaction == first)

        var refunded = Self.transaction
        refunded.revocationDate = Self.now
        refunded.revocationReason = 0
        refunded.signedTransaction = first
        let revised = try #require(
            signer.sign([refunded], settings: Self.settings, now: Self.now) { _ in throw NoChain() }.first?
                .signedTransaction)
        #expect(revised != first)
        let payload = try Self.verifier(issuer).check(revised, transactionID: Self.transaction.transactionID).get()
        #expect(payload.revocationDate == Self.now)
        #expect(
            signer.sign([refunded], settings: Self.settings, now: Self.now) { _ in throw NoChain() }.first?
                .signedTransaction == revised)
    }

    @Test func aBatchKeepsTheKeptSignaturesSignsTheRestAndKeepsItsOrder() throws {
        let directory = try TemporaryDirectory()
        let issuer = try Self.issuer(in: directory)
        let signer = TransactionSigner()
        let versions = (0..<5).map { index -> StoreCore.Transaction in
            StoreCore.Transaction(
                transactionID: String(2_000_000_000_000_001 + index), productID: "com.test.pro",
                productType: .nonConsumable,
                payment: Payment(productID: "com.test.pro"), state: .purchased,
                purchaseDate: Self.now.addingTimeInterval(-60),
                price: 9.99, currencyCode: "USD", storefront: "USA")
        }
        // Two signed alone first, then all five at once (one of them twice).
        let alone = [1, 3].map {
            signer.sign([versions[$0]], settings: Self.settings, now: Self.now) { _ in issuer }[0].signedTransaction
        }
        let batch = signer.sign(versions + [versions[4]], settings: Self.settings, now: Self.now) { _ in issuer }
        #expect(batch.map { $0.transactionID } == (versions + [versions[4]]).map { $0.transactionID })
        #expect(batch[1].signedTransaction == alone[0])
        #expect(batch[3].signedTransaction == alone[1])
        #expect(
            batch[5].signedTransaction == batch[4].signedTransaction, "a version asked twice in one batch has one JWS")
        let verifier = try Self.verifier(issuer)
        for t in batch {
            let jws = try #require(t.signedTransaction)
            #expect(try verifier.check(jws, transactionID: t.transactionID).get().transactionId == t.transactionID)
        }
        // And every one of them is kept now: no issuer needed to answer them again.
        let again = signer.sign(versions, settings: Self.settings, now: Self.now) { _ in throw NoChain() }
        #expect(again.map { $0.signedTransaction } == batch.prefix(5).map { $0.signedTransaction })
    }

    @Test func theIssuerIsLoadedOnFirstUseAndAgainAfterAFailure() throws {
        let directory = try TemporaryDirectory()
        let issuer = try Self.issuer(in: directory)
        let signer = TransactionSigner()
        var loads = 0

        #expect(
            signer.sign([], settings: Self.settings, now: Self.now) { _ in
                loads += 1
                return issuer
            }.isEmpty)
        #expect(loads == 0, "nothing to sign loads nothing")

        let unsigned = signer.sign([Self.transaction], settings: Self.settings, now: Self.now) { _ in
            loads += 1
            throw NoChain()
        }
        #expect(loads == 1)
        #expect(unsigned == [Self.transaction], "without an issuer transactions go out as they came")

        let signed = signer.sign([Self.transaction], settings: Self.settings, now: Self.now) { _ in
            loads += 1
            return issuer
        }
        #expect(loads == 2)
        let jws = try #require(signed.first?.signedTransaction)
        _ = try Self.verifier(issuer).check(jws, transactionID: Self.transaction.transactionID).get()

        _ = signer.sign([Self.transaction], settings: Self.settings, now: Self.now) { _ in
            loads += 1
            return issuer
        }
        #expect(loads == 2, "loaded once")
    }

    @Test func renewalInfoIsSignedWithTheSameIssuer() throws {
        let directory = try TemporaryDirectory()
        let issuer = try Self.issuer(in: directory)
        let info = RenewalInfo(
            originalTransactionID: "5", currentProductID: "plus.monthly", autoRenewProductID: "plus.monthly",
            willAutoRenew: false, expirationIntent: nil, isInBillingRetry: false, gracePeriodExpiresDate: nil,
            renewalDate: Self.now.addingTimeInterval(3600))
        let failing = TransactionSigner()
        #expect(failing.signedRenewalInfo(info, settings: Self.settings, now: Self.now) { _ in throw NoChain() } == nil)

        let signer = TransactionSigner()
        let jws = try #require(signer.signedRenewalInfo(info, settings: Self.settings, now: Self.now) { _ in issuer })
        let payload = try #require(
            try JWSVerifier(trustedRoots: [issuer.authority.root.derRepresentation]).verifyRenewalInfo(jws).payload)
        #expect(payload.autoRenewStatus == .off)
        #expect(payload.originalTransactionId == "5")
    }

    @Test func eachIdentityHasItsOwnIssuerAndSignatures() throws {
        let directory = try TemporaryDirectory()
        let issuer = try LocalReceiptIssuer.loadOrCreate(
            stateDirectory: directory.url, configuration: Self.configuration, now: Self.now.addingTimeInterval(-3600),
            receiptSigner: false)
        try #require(issuer.authority.receiptSigningCertificate == nil)
        let withReceipts = try Self.issuer(in: directory)
        let signer = TransactionSigner()
        var production = Self.settings
        production.rawEnvironment = "Production"
        var loads: [Bool] = []
        let sandboxJWS = try #require(
            signer.sign([Self.transaction], settings: Self.settings, now: Self.now) { receiptSigner in
                loads.append(receiptSigner)
                return issuer
            }.first?.signedTransaction)
        let productionJWS = try #require(
            signer.sign([Self.transaction], settings: production, now: Self.now) { receiptSigner in
                loads.append(receiptSigner)
                return issuer
            }.first?.signedTransaction)
        #expect(loads == [false, false], "one issuer per identity, without the receipt signer")
        #expect(sandboxJWS != productionJWS)
        // Going back to the first settings finds its signature kept.
        #expect(
            signer.sign([Self.transaction], settings: Self.settings, now: Self.now) { _ in throw NoChain() }
                .first?.signedTransaction == sandboxJWS)
        // Asking for the receipt signer the kept issuer lacks loads again, once.
        let loaded = try signer.issuer(for: Self.settings, withReceiptSigner: true) { receiptSigner in
            loads.append(receiptSigner)
            return withReceipts
        }
        #expect(loaded.authority.receiptSigningCertificate != nil)
        _ = try signer.issuer(for: Self.settings, withReceiptSigner: true) { _ in throw NoChain() }
        #expect(loads == [false, false, true])
    }

    @Test func threadsSigningOneVersionAtOnceAllGetTheFirstJWSKept() async throws {
        let directory = try TemporaryDirectory()
        let issuer = try Self.issuer(in: directory)
        let signer = TransactionSigner()
        let settings = Self.settings
        let transaction = Self.transaction
        let signed = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    signer.sign([transaction], settings: settings, now: Self.now) { _ in issuer }.first?
                        .signedTransaction
                }
            }
            var all: [String?] = []
            for await jws in group { all.append(jws) }
            return all
        }
        let kept = signer.sign([transaction], settings: settings, now: Self.now) { _ in throw NoChain() }.first?
            .signedTransaction
        #expect(kept != nil)
        #expect(signed.count == 8)
        // A thread that signed after another stored its JWS hands out the stored one, not its own.
        #expect(signed.allSatisfy { $0 == kept })
    }
}
