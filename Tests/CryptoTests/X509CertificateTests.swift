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

    /// `bytes` as a PEM block labelled `label`.
    static func pem(_ bytes: [UInt8], label: String = "CERTIFICATE") -> String {
        let body = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(body)\n-----END \(label)-----\n"
    }

    @Test func aCertificateParsedOnUseIsTheFilesBytesAndReadsAsOneParsedAtOnce() throws {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let authority = try CertificateAuthority.create(now: now).authority
        for certificate in [authority.root, authority.intermediate, authority.signingCertificate] {
            // Text before the block, and a block that is no certificate, are skipped as OpenSSL's reader does.
            let text =
                "issued by the test\n" + Self.pem([0x05, 0x00], label: "PARAMETERS") + certificate.pemRepresentation
            let deferred = try X509Certificate(pemParsedOnUse: text)
            #expect(deferred.derRepresentation == certificate.derRepresentation)
            #expect(deferred.subject == certificate.subject)
            #expect(deferred.issuer == certificate.issuer)
            #expect(deferred.serialHex == certificate.serialHex)
            #expect(deferred.isSelfSigned == certificate.isSelfSigned)
            #expect(deferred == certificate)
            #expect(deferred.hashValue == certificate.hashValue)
        }
        let root = try X509Certificate(pemParsedOnUse: authority.root.pemRepresentation)
        let intermediate = try X509Certificate(pemParsedOnUse: authority.intermediate.pemRepresentation)
        #expect(
            try CertificateChain.verify(
                leaf: authority.signingCertificate, intermediates: [intermediate], trustedRoots: [root], at: now) == nil
        )
        #expect(intermediate.hasExtension(oid: "1.2.840.113635.100.6.2.1"))
    }

    @Test func parsedOnUseRefusesBytesNotShapedAsACertificate() throws {
        let authority = try CertificateAuthority.create(now: Date(timeIntervalSince1970: 1_767_225_600)).authority
        let der = authority.intermediate.derRepresentation
        // The outer length in its long form (0x30 0x82 HI LO): the signed part starts at 4.
        #expect(der[0] == 0x30 && der[1] == 0x82 && der[4] == 0x30)
        var overrun = der
        overrun[7] &+= 1  // the signed part claims a byte of the signature algorithm
        var indefinite = der
        indefinite[1] = 0x80
        let shapes: [(String, [UInt8])] = [
            ("truncated", Array(der.dropLast())),
            ("a byte after it", der + [0x00]),
            ("a SET, not a SEQUENCE", [0x31] + der.dropFirst()),
            ("an indefinite length", indefinite),
            ("an element overrunning its parent", overrun),
            ("two elements, not three", [0x30, 0x04, 0x30, 0x00, 0x30, 0x00]),
            ("a length longer than it need be", [0x30, 0x81, 0x08, 0x30, 0x00, 0x30, 0x00, 0x03, 0x01, 0x00, 0x00]),
            ("a multi-byte tag", [0x30, 0x09, 0x3F, 0x01, 0x00, 0x30, 0x00, 0x03, 0x01, 0x00]),
            ("empty", []),
        ]
        for (what, bytes) in shapes {
            #expect(throws: CryptoError.self, "\(what)") { try X509Certificate(pemParsedOnUse: Self.pem(bytes)) }
        }
        #expect(throws: CryptoError.self) { try X509Certificate(pemParsedOnUse: "hello") }
        let key = try PrivateKey.generate(.p256).pemRepresentation()
        #expect(throws: CryptoError.self) { try X509Certificate(pemParsedOnUse: key) }
    }

    @Test func aCertificateShapedRightThatOpenSSLRefusesCertifiesNothing() throws {
        // SEQUENCE { SEQUENCE { INTEGER 1 }, SEQUENCE {}, BIT STRING 00 }: a certificate's shape only.
        let der: [UInt8] = [0x30, 0x0A, 0x30, 0x03, 0x02, 0x01, 0x01, 0x30, 0x00, 0x03, 0x01, 0x00]
        #expect(throws: CryptoError.self) { try X509Certificate(der: der) }
        let certificate = try X509Certificate(pemParsedOnUse: Self.pem(der))
        #expect(certificate.derRepresentation == der)
        #expect(!certificate.certifies(try PrivateKey.generate(.p256)))
        #expect(certificate.subject == "")
        #expect(certificate.ocspResponderURLs.isEmpty)
        #expect(!certificate.hasECKey)
    }
    /// A signer read to be parsed on use answers its OCSP URL and whether a key is its own from
    /// its bytes (its extensions read alone, its public key info compared), as a parsed one
    /// answers, without OpenSSL parsing it; a key that is not its own gets OpenSSL's answer.
    @Test func aSignerParsedOnUseAnswersItsOCSPURLAndItsKeyWithoutAParse() throws {
        let url = "http://127.0.0.1:8080/ocsp"
        let keys = try CertificateAuthority.create(
            configuration: .init(receiptKeyKind: nil, ocspURL: url), now: Date(timeIntervalSince1970: 1_767_225_600))
        let authority = keys.authority
        let signer = try X509Certificate(pemParsedOnUse: authority.signingCertificate.pemRepresentation)
        #expect(signer.ocspResponderURLs == [url])
        #expect(signer.ocspResponderURLs == authority.signingCertificate.ocspResponderURLs)
        #expect(signer.certifies(authority.signingKey))
        #expect(!signer.isParsed)
        #expect(!signer.certifies(keys.intermediateKey))
        #expect(signer.isParsed)
        // The root names no OCSP responder, read to be parsed on use or not.
        let root = try X509Certificate(pemParsedOnUse: authority.root.pemRepresentation)
        #expect(root.ocspResponderURLs.isEmpty && authority.root.ocspResponderURLs.isEmpty)
        #expect(root.certifies(keys.rootKey))
        #expect(!root.isParsed)
        #expect(!root.certifies(try PrivateKey.generate(.rsa(bits: 2048))))
    }
}
