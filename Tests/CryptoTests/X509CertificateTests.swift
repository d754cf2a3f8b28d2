import Foundation
import Testing

@testable import Crypto

@Suite struct X509CertificateTests {
    @Test func pemAndDERRoundTrip() throws {
        let authority = try CertificateAuthority.create(now: Date(timeIntervalSince1970: 1_767_225_600)).authority
        let certificate = authority.intermediate
        #expect(try X509Certificate(pem: certificate.pemRepresentation) == certificate)
        #expect(try X509Certificate(der: certificate.derRepresentation) == certificate)
        #expect(certificate.subject.contains("CN=Storefront Local App Store Intermediate CA"))
        #expect(certificate.issuer == authority.root.subject)
        #expect(certificate.notBefore == Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test func rejectsNonCertificates() {
        #expect(throws: CryptoError.self) { try X509Certificate(der: [0x30, 0x00]) }
        #expect(throws: CryptoError.self) { try X509Certificate(pem: "hello") }
    }
}
