import Crypto
import Foundation
import Receipts
import TestSupport
import Testing

@testable import StoreCore

@Suite struct AppTransactionVerifierTests {
    static let signed = Date(timeIntervalSince1970: 1_767_225_600)
    static let firstGot = Date(timeIntervalSince1970: 1_700_000_000)
    static let device = UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!
    static let nonce = UUID(uuidString: "8A0F4D2E-1B2C-4D5E-9F00-112233445566")!

    static func payload(
        bundle: String = "com.example.storefront", environment: AppStoreEnvironment = .sandbox, device: UUID = device
    ) throws -> JWSAppTransactionDecodedPayload {
        var payload = JWSAppTransactionDecodedPayload()
        payload.receiptType = environment
        payload.bundleId = bundle
        payload.applicationVersion = "2.0"
        payload.originalApplicationVersion = "1.0"
        payload.originalPurchaseDate = firstGot
        payload.receiptCreationDate = signed
        payload.signedDate = signed
        payload.appTransactionId = "704289572311111111"
        payload.originalPlatform = .iOS
        payload.deviceVerificationNonce = nonce.uuidString.lowercased()
        payload.deviceVerification = try AppTransactionVerifier.deviceVerification(nonce: nonce, device: device)
            .base64EncodedString()
        return payload
    }

    let authority: CertificateAuthority
    let verifier: AppTransactionVerifier

    init() throws {
        authority = try CertificateAuthority.create(now: Self.signed.addingTimeInterval(-3600)).authority
        verifier = try AppTransactionVerifier(
            configuration: .init(
                trustedRoots: [Data(authority.root.derRepresentation)], bundleID: "com.example.storefront",
                environments: [.sandbox], deviceIdentifier: Self.device))
    }

    @Test func aGenuineAppTransactionIsVerifiedWithWhatItSays() throws {
        let jws = try JWSSigner(authority: authority).sign(try Self.payload())
        let result = try verifier.verify(jws)
        let app = try result.payloadValue
        #expect(result.isVerified)
        #expect(app.appTransactionID == "704289572311111111")
        #expect(app.bundleID == "com.example.storefront")
        #expect(app.appVersion == "2.0")
        #expect(app.originalAppVersion == "1.0")
        #expect(app.originalPurchaseDate == Self.firstGot)
        #expect(app.signedDate == Self.signed)
        #expect(app.environment == .sandbox)
        #expect(app.originalPlatform == .iOS)
        #expect(app.deviceVerificationNonce == Self.nonce)
        #expect(app.jwsRepresentation == jws)
    }

    @Test func aForeignChainIsUnverifiedButStillSaysWhatItClaims() throws {
        let stranger = try CertificateAuthority.create(now: Self.signed.addingTimeInterval(-3600)).authority
        let result = try verifier.verify(try JWSSigner(authority: stranger).sign(try Self.payload()))
        guard case .unverified(let app, .invalidCertificateChain) = result else {
            Issue.record("expected an invalid chain, got \(result)")
            return
        }
        #expect(app.originalAppVersion == "1.0")
        #expect(throws: AppTransactionVerifier.VerificationError.self) { try result.payloadValue }
    }

    @Test func aChangedPayloadFailsTheSignature() throws {
        let jws = try JWSSigner(authority: authority).sign(try Self.payload())
        var parts = jws.split(separator: ".").map(String.init)
        var other = try Self.payload()
        other.originalApplicationVersion = "0.1"
        let otherJWS = try JWSSigner(authority: authority).sign(other)
        parts[1] = String(otherJWS.split(separator: ".")[1])
        let result = try verifier.verify(parts.joined(separator: "."))
        guard case .unverified(let app, .invalidSignature) = result else {
            Issue.record("expected an invalid signature, got \(result)")
            return
        }
        #expect(app.originalAppVersion == "0.1")
    }

    @Test func anotherAppEnvironmentOrDeviceIsUnverified() throws {
        let signer = try JWSSigner(authority: authority)
        guard
            case .unverified(_, .invalidAppIdentifier) = try verifier.verify(
                try signer.sign(try Self.payload(bundle: "com.example.other")))
        else {
            Issue.record("expected another app")
            return
        }
        guard
            case .unverified(_, .invalidEnvironment) = try verifier.verify(
                try signer.sign(try Self.payload(environment: .production)))
        else {
            Issue.record("expected another environment")
            return
        }
        guard
            case .unverified(_, .invalidDeviceVerification) = try verifier.verify(
                try signer.sign(try Self.payload(device: UUID())))
        else {
            Issue.record("expected another device")
            return
        }
        // Without a device identifier the hash is not checked.
        var config = verifier.configuration
        config.deviceIdentifier = nil
        #expect(
            try AppTransactionVerifier(configuration: config).verify(try signer.sign(try Self.payload(device: UUID())))
                .isVerified)
    }

    @Test func aMissingRequiredMemberIsNamed() throws {
        var payload = try Self.payload()
        payload.originalApplicationVersion = nil
        payload.appTransactionId = nil
        let result = try verifier.verify(try JWSSigner(authority: authority).sign(payload))
        #expect(result.verificationError == .missingRequiredProperties("appTransactionId, originalApplicationVersion"))
    }

    @Test func textThatIsNoJWSCannotBeRead() {
        #expect(
            throws: AppTransactionVerifier.VerificationError.invalidEncoding(
                "not a JWS in compact form: expected 3 dot-separated parts, found 1")
        ) {
            try verifier.verify("nonsense")
        }
    }

    @Test func aBackendWithoutAppTransactionsSaysSo() async throws {
        let directory = try TemporaryDirectory()
        let store = Store(backend: QueueBackend(), ledger: try FileLedger(path: directory.path("ledger.jsonl")))
        await #expect(throws: StoreError.systemError("this store issues no app transaction")) {
            try await store.appTransaction()
        }
    }
}
