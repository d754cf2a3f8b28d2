import Crypto
import Foundation
import StoreKitValues
import TestSupport
import Testing

@testable import Receipts

@Suite(.waitsOnProcesses) struct JWSTests {
    static let signedDate = Date(timeIntervalSince1970: 1_767_225_600)

    static func transaction() -> JWSTransactionDecodedPayload {
        var payload = JWSTransactionDecodedPayload()
        payload.transactionId = "2000000123"
        payload.originalTransactionId = "2000000100"
        payload.webOrderLineItemId = "2000000050"
        payload.bundleId = "com.example.storefront"
        payload.productId = "com.example.pro.monthly"
        payload.subscriptionGroupIdentifier = "21345678"
        payload.purchaseDate = signedDate.addingTimeInterval(-60)
        payload.originalPurchaseDate = signedDate.addingTimeInterval(-86_400)
        payload.expiresDate = signedDate.addingTimeInterval(30 * 86_400)
        payload.quantity = 1
        payload.type = .autoRenewableSubscription
        payload.appAccountToken = UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138")
        payload.inAppOwnershipType = .purchased
        payload.signedDate = signedDate
        payload.environment = .localTesting
        payload.storefront = "USA"
        payload.storefrontId = "143441"
        payload.transactionReason = .purchase
        payload.price = 1990
        payload.currency = "USD"
        payload.offerType = .introductoryOffer
        payload.offerIdentifier = "intro.week"
        payload.isUpgraded = false
        return payload
    }

    func authority(
        _ configuration: CertificateAuthority.Configuration = .init(), created: Date? = nil
    ) throws -> CertificateAuthority {
        try CertificateAuthority.create(
            configuration: configuration, now: created ?? Self.signedDate.addingTimeInterval(-86_400)
        ).authority
    }

    @Test func signedTransactionVerifiesAndCarriesApplesFieldNames() throws {
        let authority = try authority()
        let jws = try JWSSigner(authority: authority).sign(Self.transaction())
        let verifier = try JWSVerifier(trustedRoots: [authority.root.derRepresentation])
        #expect(verifier.verifyTransaction(jws) == .valid(Self.transaction()))

        let parts = jws.split(separator: ".")
        try #require(parts.count == 3)
        let headerBytes = try #require(Base64URL.decode(parts[0]))
        let header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
        #expect(header["alg"] as? String == "ES256")
        let x5c = try #require(header["x5c"] as? [String])
        #expect(x5c.count == 3)
        #expect(x5c.first == Data(authority.signingCertificate.derRepresentation).base64EncodedString())
        let bodyBytes = try #require(Base64URL.decode(parts[1]))
        let body = try #require(try JSONSerialization.jsonObject(with: Data(bodyBytes)) as? [String: Any])
        #expect(body["transactionId"] as? String == "2000000123")
        #expect(body["type"] as? String == "Auto-Renewable Subscription")
        #expect(body["inAppOwnershipType"] as? String == "PURCHASED")
        #expect(body["environment"] as? String == "LocalTesting")
        #expect(body["transactionReason"] as? String == "PURCHASE")
        #expect(body["price"] as? Int == 1990)
        #expect(body["offerType"] as? Int == 1)
        #expect(body["signedDate"] as? Int == 1_767_225_600_000)
        #expect(try #require(Base64URL.decode(parts[2])).count == 64)
    }

    @Test func oneSignerKeepsItsHeaderAndEverySignatureVerifies() throws {
        let authority = try authority()
        let signer = try JWSSigner(authority: authority)
        let verifier = try JWSVerifier(trustedRoots: [authority.root.derRepresentation])
        var second = Self.transaction()
        second.transactionId = "2000000124"
        let first = try signer.sign(Self.transaction())
        let next = try signer.sign(second)
        #expect(verifier.verifyTransaction(first) == .valid(Self.transaction()))
        #expect(verifier.verifyTransaction(next) == .valid(second))
        let fresh = try JWSSigner(authority: authority).sign(second)
        #expect(first.split(separator: ".")[0] == next.split(separator: ".")[0])
        #expect(next.split(separator: ".")[0] == fresh.split(separator: ".")[0], "the kept header is a new signer's")
        #expect(next.split(separator: ".")[1] == fresh.split(separator: ".")[1])
    }

    @Test func openSSLVerifiesTheES256Signature() throws {
        let authority = try authority()
        let jws = try JWSSigner(authority: authority).sign(Self.transaction())
        let parts = jws.split(separator: ".")
        let scratch = try TemporaryDirectory(prefix: "jws")
        let directory = scratch.url
        let input = directory.appendingPathComponent("input")
        try Data((parts[0] + "." + parts[1]).utf8).write(to: input)
        let signature = directory.appendingPathComponent("signature.der")
        let raw = try #require(Base64URL.decode(parts[2]))
        try Data(try ECDSA.derSignature(fromRaw: raw)).write(to: signature)
        let certificate = directory.appendingPathComponent("leaf.pem")
        try authority.signingCertificate.pemRepresentation.write(to: certificate, atomically: true, encoding: .utf8)
        let key = directory.appendingPathComponent("leaf.pub")
        #expect(
            try ChildProcess.run(
                .tool("openssl"), ["x509", "-in", certificate.path, "-pubkey", "-noout", "-out", key.path]
            ).status == 0)
        let result = try ChildProcess.run(
            .tool("openssl"), ["dgst", "-sha256", "-verify", key.path, "-signature", signature.path, input.path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Verified OK"))
    }

    @Test func renewalInfoRoundTrips() throws {
        let authority = try authority()
        var info = JWSRenewalInfoDecodedPayload()
        info.originalTransactionId = "2000000100"
        info.autoRenewProductId = "com.example.pro.yearly"
        info.productId = "com.example.pro.monthly"
        info.autoRenewStatus = .on
        info.isInBillingRetryPeriod = false
        info.signedDate = Self.signedDate
        info.environment = .localTesting
        info.renewalDate = Self.signedDate.addingTimeInterval(30 * 86_400)
        info.renewalPrice = 19_990
        info.currency = "USD"
        info.rawExpirationIntent = 99  // an unknown future value survives
        let jws = try JWSSigner(authority: authority).sign(info)
        let result = try JWSVerifier(trustedRoots: [authority.root.derRepresentation]).verifyRenewalInfo(jws)
        #expect(result == .valid(info))
        #expect(result.payload?.expirationIntent == nil)
        #expect(result.payload?.rawExpirationIntent == 99)
    }

    @Test func changedPayloadIsASignatureMismatch() throws {
        let authority = try authority()
        let jws = try JWSSigner(authority: authority).sign(Self.transaction())
        var parts = jws.split(separator: ".").map(String.init)
        var changed = Self.transaction()
        changed.productId = "com.example.free.lunch"
        parts[1] = Base64URL.encode(try JWSCoding.encode(changed))
        let result = try JWSVerifier(trustedRoots: [authority.root.derRepresentation]).verifyTransaction(
            parts.joined(separator: "."))
        #expect(result == .invalid(.signatureMismatch))
    }

    @Test func otherAlgorithmsAreRefused() throws {
        let authority = try authority()
        let jws = try JWSSigner(authority: authority).sign(Self.transaction())
        var parts = jws.split(separator: ".").map(String.init)
        parts[0] = Base64URL.encode(try JSONEncoder().encode(JWSHeader(alg: "none", x5c: nil)))
        let result = try JWSVerifier(trustedRoots: [authority.root.derRepresentation]).verifyTransaction(
            parts.joined(separator: "."))
        #expect(result == .invalid(.unsupportedAlgorithm("none")))
    }

    @Test func otherRootIsUntrusted() throws {
        let jws = try JWSSigner(authority: try authority()).sign(Self.transaction())
        let result = try JWSVerifier(trustedRoots: [try authority().root.derRepresentation]).verifyTransaction(jws)
        guard case .invalid(.untrustedChain) = result else {
            Issue.record("got \(result)")
            return
        }
    }

    @Test func expiredChainAtSignedDate() throws {
        let authority = try authority(.init(signingValidity: 3600), created: Self.signedDate.addingTimeInterval(-7200))
        let jws = try JWSSigner(authority: authority).sign(Self.transaction())
        let result = try JWSVerifier(trustedRoots: [authority.root.derRepresentation]).verifyTransaction(jws)
        guard case .invalid(.certificateExpired(_, _, let at)) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(at == Self.signedDate)
    }

    @Test func xcodeSelfSignedCertificateOnlyWhenTrusted() throws {
        let key = try PrivateKey.generate(.p256)
        let certificate = try CertificateIssuer.issue(
            commonName: "StoreKit Testing in Xcode", organization: "Apple", subjectKey: key, issuer: nil,
            issuerKey: key,
            serial: 1, notBefore: Self.signedDate.addingTimeInterval(-60),
            notAfter: Self.signedDate.addingTimeInterval(86_400),
            role: .signing)
        var payload = Self.transaction()
        payload.environment = .xcode
        let jws = try JWSSigner(chain: [certificate], key: key).sign(payload)
        #expect(try JWSVerifier(trustedRoots: [], trustXcodeSelfSigned: true).verifyTransaction(jws) == .valid(payload))
        #expect(
            try JWSVerifier(trustedRoots: [certificate.derRepresentation]).verifyTransaction(jws) == .valid(payload))
        let strict = try JWSVerifier(trustedRoots: [try authority().root.derRepresentation]).verifyTransaction(jws)
        guard case .invalid(.untrustedChain) = strict else {
            Issue.record("got \(strict)")
            return
        }
        #expect(throws: ReceiptValidatorError.noTrustedRoot) { try JWSVerifier(trustedRoots: []) }
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", "!!.e30.AA", "e30.e30.AA"])
    func malformedInputIsRefused(text: String) throws {
        let verifier = try JWSVerifier(trustedRoots: [try authority().root.derRepresentation])
        let result = verifier.verifyTransaction(text)
        #expect(result.payload == nil)
        #expect(result.reason != nil)
    }

    @Test func rsaAuthorityCannotSignES256() throws {
        #expect(throws: CryptoError.self) { try JWSSigner(authority: try authority(.init(keyKind: .rsa(bits: 2048)))) }
    }
}

@Suite(.waitsOnProcesses) struct JWSHostileInputTests {
    /// A JWS whose payload is `json`, signed properly, so only the payload's values are hostile.
    func signed(_ json: String) throws -> (String, CertificateAuthority) {
        let authority = try CertificateAuthority.create(now: Date(timeIntervalSince1970: 1_767_225_600)).authority
        let header = JWSHeader(x5c: authority.chain.map { Data($0.derRepresentation).base64EncodedString() })
        let input = Base64URL.encode(try JSONEncoder().encode(header)) + "." + Base64URL.encode(Array(json.utf8))
        let signature = try ECDSA.signES256(Array(input.utf8), key: authority.signingKey)
        return (input + "." + Base64URL.encode(signature), authority)
    }

    @Test(arguments: [
        #"{"signedDate": 1e300}"#, #"{"signedDate": -1e300}"#, #"{"signedDate": 9223372036854775807}"#,
        #"{"signedDate": "yesterday"}"#, #"{"quantity": 99999999999}"#, #"[1, 2]"#, #"{}"#,
    ])
    func outOfRangeValuesAreInvalidNotTraps(json: String) throws {
        let (jws, authority) = try signed(json)
        let result = try JWSVerifier(trustedRoots: [authority.root.derRepresentation]).verifyTransaction(jws)
        #expect(result.payload == nil)
        #expect(result.reason.map { "\($0)" }?.isEmpty == false)
    }

    @Test func datesOutsideTheFormatDoNotTrap() {
        #expect(ReceiptDate.format(Date(timeIntervalSince1970: 1e300)).hasPrefix("out-of-range"))
        #expect(ReceiptDate.format(Date(timeIntervalSince1970: -1e300)).hasPrefix("out-of-range"))
        #expect(ReceiptDate.format(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
    }
}
