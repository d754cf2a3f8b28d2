import Foundation
import TestSupport
import Testing

@testable import Crypto

@Suite(.waitsOnProcesses) struct PKCS7Tests {
    let now = Date(timeIntervalSince1970: 1_767_225_600)

    @Test(arguments: [PrivateKey.Kind.p256, .rsa(bits: 2048)])
    func signsAndVerifies(kind: PrivateKey.Kind) throws {
        let authority = try CertificateAuthority.create(configuration: .init(keyKind: kind), now: now).authority
        let content = Array("receipt payload".utf8)
        let der = try PKCS7.sign(
            content, signer: authority.signingCertificate, key: authority.signingKey,
            chain: [authority.intermediate, authority.root])
        let result = try PKCS7.verify(der, trustedRoots: [authority.root], at: now)
        let signed = try result.get()
        #expect(signed.content == content)
        #expect(signed.signer == authority.signingCertificate)
        #expect(signed.certificates.count == 3)
    }

    @Test func openSSLCommandLineAcceptsOurSignedData() throws {
        let temp = try TemporaryDirectory()
        let authority = try CertificateAuthority.create(now: now).authority
        let der = try PKCS7.sign(
            Array("hello".utf8), signer: authority.signingCertificate, key: authority.signingKey,
            chain: [authority.intermediate])
        let file = temp.url.appendingPathComponent("signed.der")
        try Data(der).write(to: file)
        let root = temp.url.appendingPathComponent("root.pem")
        try authority.root.pemRepresentation.write(to: root, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(
            .tool("openssl"),
            [
                "cms", "-verify", "-inform", "DER", "-in", file.path, "-CAfile", root.path,
                "-attime", String(Int(now.timeIntervalSince1970) + 60), "-purpose", "any",
            ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("hello"))
    }

    @Test func changedContentIsASignatureMismatch() throws {
        let authority = try CertificateAuthority.create(now: now).authority
        let content = Array("abcdefghijklmnop".utf8)
        var der = try PKCS7.sign(
            content, signer: authority.signingCertificate, key: authority.signingKey, chain: [authority.intermediate])
        let index = try #require(der.firstIndex(of: UInt8(ascii: "h")))
        der[index] = UInt8(ascii: "H")
        guard case .failure(.signatureMismatch) = try PKCS7.verify(der, trustedRoots: [authority.root], at: now) else {
            Issue.record("expected a signature mismatch")
            return
        }
    }

    @Test func otherRootIsUntrusted() throws {
        let authority = try CertificateAuthority.create(now: now).authority
        let other = try CertificateAuthority.create(now: now).authority
        let der = try PKCS7.sign(
            [1, 2, 3], signer: authority.signingCertificate, key: authority.signingKey,
            chain: [authority.intermediate, authority.root])
        guard case .failure(.chain(.untrusted)) = try PKCS7.verify(der, trustedRoots: [other.root], at: now) else {
            Issue.record("expected an untrusted chain")
            return
        }
    }

    @Test func garbageIsMalformed() throws {
        let root = try CertificateAuthority.create(now: now).authority.root
        guard
            case .failure(.malformed) = try PKCS7.verify([0x30, 0x03, 0x02, 0x01, 0x01], trustedRoots: [root], at: now)
        else {
            Issue.record("expected malformed")
            return
        }
        #expect(throws: CryptoError.self) { try PKCS7.verify([0x30], trustedRoots: [], at: now) }
    }
}
