import Foundation
import Receipts
import StoreCore
import TestSupport
import Testing
@testable import LocalAppStore

/// The signature cache: one JWS per transaction version, the issuer loaded on first use.
@Suite struct TransactionSignerTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    static let configuration = LocalReceiptIssuer.Configuration(
        bundleID: "com.example.storefront", appVersion: "1", deviceIdentifier: Array(0..<16))

    struct NoChain: Error {}

    static func issuer(in directory: TemporaryDirectory) throws -> LocalReceiptIssuer {
        try LocalReceiptIssuer.loadOrCreate(
            stateDirectory: directory.url, configuration: configuration, now: now.addingTimeInterval(-3600))
    }

    static func verifier(_ issuer: LocalReceiptIssuer) throws -> SignedTransactionVerifier {
        try SignedTransactionVerifier(configuration: .init(
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
        #expect(try issuer.signedTransaction(Self.transaction, now: Self.now) != issuer.signedTransaction(Self.transaction, now: Self.now))

        var signer = TransactionSigner(issuer: issuer)
        let first = try #require(signer.sign([Self.transaction], now: Self.now) { throw NoChain() }.first?.signedTransaction)
        let again = signer.sign([Self.transaction], now: Self.now.addingTimeInterval(5)) { throw NoChain() }
        #expect(again.first?.signedTransaction == first)
        // The JWS a transaction carries in is not part of its version.
        let carried = try #require(again.first)
        #expect(signer.sign([carried], now: Self.now) { throw NoChain() }.first?.signedTransaction == first)

        var refunded = Self.transaction
        refunded.revocationDate = Self.now
        refunded.revocationReason = 0
        refunded.signedTransaction = first
        let revised = try #require(signer.sign([refunded], now: Self.now) { throw NoChain() }.first?.signedTransaction)
        #expect(revised != first)
        let payload = try Self.verifier(issuer).check(revised, transactionID: Self.transaction.transactionID).get()
        #expect(payload.revocationDate == Self.now)
        #expect(signer.sign([refunded], now: Self.now) { throw NoChain() }.first?.signedTransaction == revised)
    }

    @Test func theIssuerIsLoadedOnFirstUseAndAgainAfterAFailure() throws {
        let directory = try TemporaryDirectory()
        let issuer = try Self.issuer(in: directory)
        var signer = TransactionSigner()
        var loads = 0

        #expect(signer.sign([], now: Self.now) { loads += 1; return issuer }.isEmpty)
        #expect(loads == 0, "nothing to sign loads nothing")

        let unsigned = signer.sign([Self.transaction], now: Self.now) { loads += 1; throw NoChain() }
        #expect(loads == 1)
        #expect(unsigned == [Self.transaction], "without an issuer transactions go out as they came")

        let signed = signer.sign([Self.transaction], now: Self.now) { loads += 1; return issuer }
        #expect(loads == 2)
        let jws = try #require(signed.first?.signedTransaction)
        _ = try Self.verifier(issuer).check(jws, transactionID: Self.transaction.transactionID).get()

        _ = signer.sign([Self.transaction], now: Self.now) { loads += 1; return issuer }
        #expect(loads == 2, "loaded once")
    }

    @Test func renewalInfoIsSignedWithTheSameIssuer() throws {
        let directory = try TemporaryDirectory()
        let issuer = try Self.issuer(in: directory)
        let info = RenewalInfo(
            originalTransactionID: "5", currentProductID: "plus.monthly", autoRenewProductID: "plus.monthly",
            willAutoRenew: false, expirationIntent: nil, isInBillingRetry: false, gracePeriodExpiresDate: nil,
            renewalDate: Self.now.addingTimeInterval(3600))
        var failing = TransactionSigner()
        #expect(failing.signedRenewalInfo(info, now: Self.now) { throw NoChain() } == nil)

        var signer = TransactionSigner()
        let jws = try #require(signer.signedRenewalInfo(info, now: Self.now) { issuer })
        let payload = try #require(
            try JWSVerifier(trustedRoots: [issuer.authority.root.derRepresentation]).verifyRenewalInfo(jws).payload)
        #expect(payload.autoRenewStatus == .off)
        #expect(payload.originalTransactionId == "5")
    }
}
