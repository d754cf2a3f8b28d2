import Crypto
import Foundation
import Receipts
import Testing

@testable import StoreCore

@Suite struct SignedTransactionVerifierTests {
    static let signed = Date(timeIntervalSince1970: 1_767_225_600)

    static func payload(
        _ id: String = "77", bundle: String = "com.example.storefront", environment: AppStoreEnvironment = .localTesting
    ) -> JWSTransactionDecodedPayload {
        var payload = JWSTransactionDecodedPayload()
        payload.transactionId = id
        payload.originalTransactionId = id
        payload.bundleId = bundle
        payload.productId = "com.example.sword"
        payload.purchaseDate = signed
        payload.signedDate = signed
        payload.quantity = 1
        payload.type = .nonConsumable
        payload.inAppOwnershipType = .purchased
        payload.environment = environment
        return payload
    }

    static func transaction(_ id: String = "77", jws: String?) -> Transaction {
        Transaction(
            transactionID: id, productID: "com.example.sword", productType: .nonConsumable,
            payment: Payment(productID: "com.example.sword"), state: .purchased, purchaseDate: signed,
            signedTransaction: jws)
    }

    let authority: CertificateAuthority
    let verifier: SignedTransactionVerifier

    init() throws {
        authority = try CertificateAuthority.create(now: Self.signed.addingTimeInterval(-3600)).authority
        verifier = try SignedTransactionVerifier(
            configuration: .init(
                trustedRoots: [Data(authority.root.derRepresentation)], bundleID: "com.example.storefront",
                environments: [.localTesting, .sandbox]))
    }

    @Test func genuineSignedTransactionIsValid() async throws {
        let jws = try JWSSigner(authority: authority).sign(Self.payload())
        #expect(await verifier.verify(Self.transaction(jws: jws), receipt: nil) == .valid)
    }

    @Test func eachMismatchHasItsReason() throws {
        let signer = try JWSSigner(authority: authority)
        #expect(
            verifier.check(try signer.sign(Self.payload(bundle: "com.example.other")))
                == .failure(.bundleIDMismatch(expected: "com.example.storefront", found: "com.example.other")))
        #expect(
            verifier.check(try signer.sign(Self.payload(environment: .production)))
                == .failure(.environmentNotAccepted(found: "Production", accepted: ["LocalTesting", "Sandbox"])))
        #expect(
            verifier.check(try signer.sign(Self.payload("78")), transactionID: "77")
                == .failure(.transactionMismatch(field: "transactionId", expected: "77", found: "78")))
        let stranger = try CertificateAuthority.create(now: Self.signed.addingTimeInterval(-3600)).authority
        guard
            case .failure(.jws(.untrustedChain)) = verifier.check(
                try JWSSigner(authority: stranger).sign(Self.payload()))
        else {
            Issue.record("expected untrusted chain")
            return
        }
    }

    @Test func unsignedTransactionIsInvalid() async {
        guard case .invalid(let reason) = await verifier.verify(Self.transaction(jws: nil), receipt: nil) else {
            Issue.record("expected invalid")
            return
        }
        #expect(reason.contains("no signed transaction"))
    }

    @Test func xcodeSelfSignedOnlyWhenTrusted() async throws {
        let key = try PrivateKey.generate(.p256)
        let certificate = try CertificateIssuer.issue(
            commonName: "StoreKit Testing in Xcode", organization: "Apple", subjectKey: key, issuer: nil,
            issuerKey: key,
            serial: 7, notBefore: Self.signed.addingTimeInterval(-60), notAfter: Self.signed.addingTimeInterval(3600),
            role: .signing)
        let jws = try JWSSigner(chain: [certificate], key: key).sign(Self.payload(environment: .xcode))
        let xcode = try SignedTransactionVerifier(
            configuration: .init(
                trustedRoots: [], trustXcodeSelfSigned: true, bundleID: "com.example.storefront", environments: [.xcode]
            ))
        #expect(await xcode.verify(Self.transaction(jws: jws), receipt: nil) == .valid)
        let strict = try SignedTransactionVerifier(
            configuration: .init(
                trustedRoots: [Data(authority.root.derRepresentation)], bundleID: "com.example.storefront",
                environments: [.xcode]))
        guard case .invalid = await strict.verify(Self.transaction(jws: jws), receipt: nil) else {
            Issue.record("expected invalid")
            return
        }
    }
}
