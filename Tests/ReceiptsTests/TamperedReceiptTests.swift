import Crypto
import Foundation
import StoreKitValues
import Testing

@testable import Receipts

/// Item 11: each kind of tampering fails with its own reason.
@Suite struct TamperedReceiptTests {
    @Test func changedPayloadByteIsASignatureMismatch() throws {
        let fixture = try IssuedReceiptFixture()
        var der = fixture.der
        let needle = Array("com.example.pro.monthly".utf8)
        let start = try #require(firstRange(of: needle, in: der))
        der[start + 12] = UInt8(ascii: "P")
        let result = try ReceiptValidator(trustedRoots: [fixture.rootDER]).validate(der)
        guard case .invalid(.signatureMismatch) = result else {
            Issue.record("got \(result)")
            return
        }
    }

    @Test func swappedCertificatesLeaveTheSignerMissing() throws {
        let fixture = try IssuedReceiptFixture()
        let other = try CertificateAuthority.create(now: IssuedReceiptFixture.creationDate.addingTimeInterval(-60))
            .authority
        let der = try replacingCertificates(in: fixture.der, with: other.chain)
        let result = try ReceiptValidator(trustedRoots: [fixture.rootDER]).validate(der)
        guard case .invalid(.signerCertificateMissing) = result else {
            Issue.record("got \(result)")
            return
        }
        // Trusting the other root does not help either: the signature is not theirs.
        let asOther = try ReceiptValidator(trustedRoots: [other.root.derRepresentation]).validate(der)
        guard case .invalid(.signerCertificateMissing) = asOther else {
            Issue.record("got \(asOther)")
            return
        }
    }

    @Test func receiptForAnotherBundleID() throws {
        let fixture = try IssuedReceiptFixture(bundleID: "com.example.other")
        let result = try ReceiptValidator(trustedRoots: [fixture.rootDER])
            .validate(fixture.der, expecting: .init(bundleID: "com.example.storefront"))
        #expect(result == .invalid(.bundleIDMismatch(expected: "com.example.storefront", found: "com.example.other")))
    }

    @Test func expiredChainAtCreationDate() throws {
        // The chain was made two days before the receipt and its signing certificate lived one day.
        let configuration = CertificateAuthority.Configuration(signingValidity: 86_400)
        let fixture = try IssuedReceiptFixture(
            configuration: configuration, caCreated: IssuedReceiptFixture.creationDate.addingTimeInterval(-2 * 86_400))
        let result = try ReceiptValidator(trustedRoots: [fixture.rootDER]).validate(fixture.der)
        guard case .invalid(.certificateExpired(let subject, _, let checkedAt)) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(subject.contains("Signing"))
        #expect(checkedAt == IssuedReceiptFixture.creationDate)
    }

    @Test func notYetValidChain() throws {
        let fixture = try IssuedReceiptFixture(caCreated: IssuedReceiptFixture.creationDate.addingTimeInterval(86_400))
        let result = try ReceiptValidator(trustedRoots: [fixture.rootDER]).validate(fixture.der)
        guard case .invalid(.certificateNotYetValid) = result else {
            Issue.record("got \(result)")
            return
        }
    }

    @Test(arguments: [1, 10, 100, 400])
    func truncatedFileIsUnreadable(dropped: Int) throws {
        let fixture = try IssuedReceiptFixture()
        let result = try ReceiptValidator(trustedRoots: [fixture.rootDER]).validate(
            Array(fixture.der.dropLast(dropped)))
        guard case .invalid(.unreadable(.malformed)) = result else {
            Issue.record("got \(result)")
            return
        }
    }

    @Test func realReceiptWithChangedPayloadByte() throws {
        var der = try ReceiptDecoder.containerBytes(ConformanceFixtures.bytes("receipt-sandbox-g5.b64"))
        let start = try #require(firstRange(of: Array("dev.bonzer.weeka.app".utf8), in: der))
        der[start] = UInt8(ascii: "D")
        let root = try ConformanceFixtures.bytes("AppleIncRootCertificate.cer")
        let result = try ReceiptValidator(trustedRoots: [root]).validate(der)
        guard case .invalid(.signatureMismatch) = result else {
            Issue.record("got \(result)")
            return
        }
    }

    @Test func emptyAndNonReceiptFiles() throws {
        let validator = try ReceiptValidator(trustedRoots: [ConformanceFixtures.bytes("AppleIncRootCertificate.cer")])
        guard case .invalid(.unreadable(.notBase64)) = validator.validate([]) else {
            Issue.record("empty")
            return
        }
        guard case .invalid(.unreadable(.notBase64)) = validator.validate(Array("not a receipt!".utf8)) else {
            Issue.record("text")
            return
        }
        // A certificate is well-formed DER but not SignedData.
        let certificate = try ConformanceFixtures.bytes("AppleIncRootCertificate.cer")
        guard case .invalid(.unreadable) = validator.validate(certificate) else {
            Issue.record("certificate")
            return
        }
    }

    private func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    /// Rebuilds a DER SignedData with its `certificates [0]` replaced.
    private func replacingCertificates(in der: [UInt8], with certificates: [X509Certificate]) throws -> [UInt8] {
        let root = try BERReader().readSingle(der)
        let signedData = try root.child(1, "").child(0, "")
        var parts: [[UInt8]] = []
        for child in signedData.children {
            if child.tag == .context(0) {
                parts.append(DEREncoder.constructed(.context(0), certificates.map(\.derRepresentation)))
            } else {
                parts.append(Array(der[child.offset..<child.end]))
            }
        }
        let oid = try root.child(0, "")
        return DEREncoder.sequence([
            Array(der[oid.offset..<oid.end]),
            DEREncoder.constructed(.context(0), [DEREncoder.sequence(parts)]),
        ])
    }
}

/// A certificate the root vouches for but that was not issued for signing receipts or JWS
/// (a developer certificate under Apple's root, say) is refused.
@Suite struct SignerAuthorizationTests {
    let unmarked = CertificateAuthority.Configuration(intermediateMarkers: [], signingMarkers: [])

    @Test func receiptSignedWithoutTheMarkerIsRefused() throws {
        let fixture = try IssuedReceiptFixture(configuration: unmarked)
        let result = try ReceiptValidator(trustedRoots: [fixture.rootDER]).validate(fixture.der)
        #expect(
            result
                == .invalid(
                    .signerNotAuthorized(
                        subject: fixture.authority.receiptSigningCertificate?.subject ?? "",
                        missingMarker: ReceiptValidator.receiptSignerMarker)))
        // Told not to require it, the same receipt is valid.
        #expect(
            try ReceiptValidator(trustedRoots: [fixture.rootDER], signerMarker: nil).validate(fixture.der).receipt
                != nil)
    }

    @Test func jwsWithoutTheMarkersIsRefused() throws {
        let authority = try CertificateAuthority.create(
            configuration: unmarked, now: JWSTests.signedDate.addingTimeInterval(-60)
        ).authority
        let jws = try JWSSigner(authority: authority).sign(JWSTests.transaction())
        let result = try JWSVerifier(trustedRoots: [authority.root.derRepresentation]).verifyTransaction(jws)
        #expect(
            result
                == .invalid(
                    .certificateNotAuthorized(
                        subject: authority.signingCertificate.subject, missingMarker: JWSVerifier.leafMarker)))
        #expect(
            try JWSVerifier(trustedRoots: [authority.root.derRepresentation], requireMarkers: false).verifyTransaction(
                jws
            ).payload != nil)

        let halfMarked = CertificateAuthority.Configuration(intermediateMarkers: [])
        let other = try CertificateAuthority.create(
            configuration: halfMarked, now: JWSTests.signedDate.addingTimeInterval(-60)
        ).authority
        let second = try JWSVerifier(trustedRoots: [other.root.derRepresentation])
            .verifyTransaction(try JWSSigner(authority: other).sign(JWSTests.transaction()))
        #expect(
            second
                == .invalid(
                    .certificateNotAuthorized(
                        subject: other.intermediate.subject, missingMarker: JWSVerifier.intermediateMarker)))
    }
}
