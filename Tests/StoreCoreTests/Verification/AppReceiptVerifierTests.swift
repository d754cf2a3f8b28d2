import Crypto
import Foundation
import Receipts
import Synchronization
import Testing

@testable import StoreCore

@Suite struct AppReceiptVerifierTests {
    static let created = Date(timeIntervalSince1970: 1_767_225_600)
    static let device: [UInt8] = Array(100..<116)

    struct Issuer {
        let authority: CertificateAuthority
        init() throws {
            authority = try CertificateAuthority.create(
                now: AppReceiptVerifierTests.created.addingTimeInterval(-86_400)
            ).authority
        }

        func receipt(bundleID: String = "com.example.storefront", purchases: [InAppPurchaseReceipt]) throws -> Data {
            var receipt = AppReceipt(
                receiptType: .xcode, bundleID: bundleID, appVersion: "3", opaqueValue: [], sha1Hash: [],
                creationDate: AppReceiptVerifierTests.created, inApp: purchases)
            try ReceiptSigner.bind(
                &receipt, deviceIdentifier: AppReceiptVerifierTests.device, opaqueValue: [1, 2, 3, 4])
            return Data(try ReceiptSigner(authority: authority).sign(receipt))
        }
    }

    static func purchase(
        _ id: String, product: String = "com.example.sword", cancelled: Date? = nil
    ) -> InAppPurchaseReceipt {
        InAppPurchaseReceipt(
            productID: product, transactionID: id, originalTransactionID: id, purchaseDate: created,
            cancellationDate: cancelled)
    }

    static func transaction(
        _ id: String, product: String = "com.example.sword", state: TransactionState = .purchased,
        original: String? = nil
    ) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: original, productID: product, productType: .nonConsumable,
            payment: Payment(productID: product), state: state, purchaseDate: created)
    }

    func verifier(_ issuer: Issuer, refresh: (@Sendable () async throws -> Data)? = nil) throws -> AppReceiptVerifier {
        try AppReceiptVerifier(
            configuration: .init(
                trustedRoots: [Data(issuer.authority.root.derRepresentation)], bundleID: "com.example.storefront",
                appVersion: "3", deviceIdentifier: Self.device),
            refreshReceipt: refresh)
    }

    @Test func receiptWithThisTransactionIsValid() async throws {
        let issuer = try Issuer()
        let receipt = try issuer.receipt(purchases: [Self.purchase("10"), Self.purchase("11")])
        #expect(try await verifier(issuer).verify(Self.transaction("11"), receipt: receipt) == .valid)
    }

    @Test func anotherPurchaseOfTheSameProductIsNotEnough() async throws {
        let issuer = try Issuer()
        let receipt = try issuer.receipt(purchases: [Self.purchase("10")])
        let outcome = try await verifier(issuer).verify(Self.transaction("12"), receipt: receipt)
        #expect(
            outcome
                == .invalid(reason: AppReceiptVerifier.Failure.transactionNotInReceipt(transactionID: "12").description)
        )
    }

    @Test func refreshesOnceAndChecksAgain() async throws {
        let issuer = try Issuer()
        let stale = try issuer.receipt(purchases: [Self.purchase("10")])
        let fresh = try issuer.receipt(purchases: [Self.purchase("10"), Self.purchase("12")])
        let calls = Mutex(0)
        let verifier = try verifier(issuer) {
            calls.withLock { $0 += 1 }
            return fresh
        }
        #expect(await verifier.verify(Self.transaction("12"), receipt: stale) == .valid)
        #expect(calls.withLock { $0 } == 1)
        // Still absent after the refresh: invalid, and only one refresh per verification.
        guard case .invalid = await verifier.verify(Self.transaction("13"), receipt: stale) else {
            Issue.record("expected invalid")
            return
        }
        #expect(calls.withLock { $0 } == 2)
        // A valid first check does not refresh.
        #expect(await verifier.verify(Self.transaction("10"), receipt: stale) == .valid)
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func failedRefreshIsUnableToComplete() async throws {
        let issuer = try Issuer()
        struct Offline: Error {}
        let verifier = try verifier(issuer) { throw Offline() }
        guard case .unableToComplete = await verifier.verify(Self.transaction("1"), receipt: nil) else {
            Issue.record("expected unable")
            return
        }
    }

    @Test func eachFailureHasItsReason() throws {
        let issuer = try Issuer()
        let verifier = try verifier(issuer)
        let refunded = Self.created.addingTimeInterval(60)
        let receipt = try issuer.receipt(purchases: [Self.purchase("10"), Self.purchase("11", cancelled: refunded)])
        #expect(verifier.check(nil, transactionID: "10") == .invalid(.noReceipt))
        #expect(
            verifier.check(receipt, transactionID: "10", productID: "com.example.shield")
                == .invalid(
                    .productMismatch(transactionID: "10", expected: "com.example.shield", found: "com.example.sword")))
        #expect(verifier.check(receipt, transactionID: "11") == .invalid(.cancelled(transactionID: "11", on: refunded)))
        let other = try issuer.receipt(bundleID: "com.example.other", purchases: [Self.purchase("10")])
        #expect(
            verifier.check(other, transactionID: "10")
                == .invalid(.receipt(.bundleIDMismatch(expected: "com.example.storefront", found: "com.example.other")))
        )
        let stranger = try Issuer()
        let foreign = try stranger.receipt(purchases: [Self.purchase("10")])
        guard case .invalid(.receipt(.untrustedChain)) = verifier.check(foreign, transactionID: "10") else {
            Issue.record("expected untrusted chain")
            return
        }
        let otherDevice = try AppReceiptVerifier(
            configuration: .init(
                trustedRoots: [Data(issuer.authority.root.derRepresentation)], bundleID: "com.example.storefront",
                deviceIdentifier: Array(0..<16)))
        #expect(otherDevice.check(receipt, transactionID: "10") == .invalid(.receipt(.deviceHashMismatch)))
    }

    @Test func restoredTransactionMatchesItsOriginal() async throws {
        let issuer = try Issuer()
        let receipt = try issuer.receipt(purchases: [Self.purchase("10")])
        #expect(
            try await verifier(issuer).verify(
                Self.transaction("20", state: .restored, original: "10"), receipt: receipt) == .valid)
        guard
            case .invalid = try await verifier(issuer).verify(Self.transaction("20", original: "10"), receipt: receipt)
        else {
            Issue.record("a purchase is not verified by its original")
            return
        }
    }

    @Test func realAppleSandboxReceiptVerifiesForItsTransaction() async throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("ReceiptsTests/Fixtures")
        let expectedJSON = try JSONSerialization.jsonObject(
            with: Data(contentsOf: fixtures.appendingPathComponent("expected.json")))
        let entry = try #require(
            ((expectedJSON as? [String: Any])?["receipts"] as? [String: Any])?["receipt-sandbox-g5.b64"]
                as? [String: Any])
        let uuid = try #require((entry["hash"] as? [String: String])?["deviceIdentifierUUID"])
        let inApp = try #require(entry["inApp"] as? [[String: Any]])
        let lastID = try #require(inApp.last?["transactionID"] as? String)
        let product = try #require(inApp.last?["productID"] as? String)
        let verifier = try AppReceiptVerifier(
            configuration: .init(
                trustedRoots: [try Data(contentsOf: fixtures.appendingPathComponent("AppleIncRootCertificate.cer"))],
                bundleID: try #require(entry["bundleID"] as? String), appVersion: entry["appVersion"] as? String,
                deviceIdentifier: ReceiptValidator.deviceIdentifier(uuid: uuid)))
        let receipt = try Data(contentsOf: fixtures.appendingPathComponent("receipt-sandbox-g5.b64"))
        #expect(await verifier.verify(Self.transaction(lastID, product: product), receipt: receipt) == .valid)
        guard
            case .invalid = await verifier.verify(
                Self.transaction("2000001092199999", product: product), receipt: receipt)
        else {
            Issue.record("a transaction not in the receipt must not verify")
            return
        }
    }
}
