import Foundation
import TestSupport
import Testing

@testable import Crypto

/// The OCSP responder, judged by OpenSSL's own `openssl ocsp` client: it builds the requests
/// and verifies the answers (signature, responder, nonce, status).
@Suite(.waitsOnProcesses) struct OCSPResponderTests {
    let now = Date()
    let keys: CertificateAuthority.Keys
    var authority: CertificateAuthority { keys.authority }
    let temp: TemporaryDirectory

    init() throws {
        keys = try CertificateAuthority.create(
            configuration: .init(ocspURL: "http://127.0.0.1:8490/ocsp"), now: now.addingTimeInterval(-3600))
        temp = try TemporaryDirectory()
        for (name, certificate) in [
            ("root", authority.root), ("intermediate", authority.intermediate),
            ("signing", authority.signingCertificate), ("receipt", try #require(authority.receiptSigningCertificate)),
        ] {
            try certificate.pemRepresentation.write(to: file(name), atomically: true, encoding: .utf8)
        }
    }

    func file(_ name: String) -> URL { temp.url.appendingPathComponent(name + ".pem") }

    var responder: OCSPResponder {
        OCSPResponder(authorities: [
            .init(certificate: authority.root, key: keys.rootKey, issued: [authority.intermediate]),
            .init(
                certificate: authority.intermediate, key: keys.intermediateKey,
                issued: [authority.signingCertificate] + [authority.receiptSigningCertificate].compactMap { $0 }),
        ])
    }

    /// Asks `openssl ocsp` for a request about `certificate` (issued by `issuer`), answers it,
    /// and returns what `openssl ocsp` says of the answer.
    func ask(about certificate: String, issuer: String, nonce: Bool = false) throws -> ChildProcess.Result {
        let request = temp.url.appendingPathComponent("\(certificate).req")
        let response = temp.url.appendingPathComponent("\(certificate).resp")
        #expect(
            try ChildProcess.run(
                .tool("openssl"),
                ["ocsp", "-issuer", file(issuer).path, "-cert", file(certificate).path, "-reqout", request.path]
                    + (nonce ? [] : ["-no_nonce"])
            ).status == 0)
        try responder.respond(to: try Data(contentsOf: request), at: now).write(to: response)
        let check =
            nonce
            ? ["-reqin", request.path] : ["-issuer", file(issuer).path, "-cert", file(certificate).path, "-no_nonce"]
        return try ChildProcess.run(
            .tool("openssl"),
            ["ocsp", "-respin", response.path, "-CAfile", file("root").path] + check
                + (nonce ? ["-issuer", file(issuer).path] : []))
    }

    @Test func signersAreGoodAnsweredByTheIntermediate() throws {
        for leaf in ["signing", "receipt"] {
            let answer = try ask(about: leaf, issuer: "intermediate")
            #expect(answer.status == 0, "\(answer.output)")
            #expect(answer.output.contains("Response verify OK"))
            #expect(answer.output.contains("\(leaf).pem: good"), "\(answer.output)")
        }
    }

    @Test func theIntermediateIsGoodAnsweredByTheRoot() throws {
        let answer = try ask(about: "intermediate", issuer: "root")
        #expect(answer.status == 0, "\(answer.output)")
        #expect(answer.output.contains("intermediate.pem: good"), "\(answer.output)")
    }

    @Test func theNonceComesBack() throws {
        let answer = try ask(about: "signing", issuer: "intermediate", nonce: true)
        #expect(answer.status == 0, "\(answer.output)")
        #expect(answer.output.contains("Response verify OK"), "\(answer.output)")
    }

    @Test func aCertificateTheIssuerDidNotIssueIsUnknown() throws {
        let stranger = try CertificateIssuer.issue(
            commonName: "Stranger", organization: "Elsewhere", subjectKey: try PrivateKey.generate(.p256),
            issuer: authority.intermediate, issuerKey: keys.intermediateKey, serial: 77,
            notBefore: now.addingTimeInterval(-60),
            notAfter: now.addingTimeInterval(3600), role: .signing)
        try stranger.pemRepresentation.write(to: file("stranger"), atomically: true, encoding: .utf8)
        let answer = try ask(about: "stranger", issuer: "intermediate")
        #expect(answer.output.contains("stranger.pem: unknown"), "\(answer.output)")
    }

    @Test func anotherChainIsUnauthorized() throws {
        let other = try CertificateAuthority.create(now: now.addingTimeInterval(-60)).authority
        try other.intermediate.pemRepresentation.write(
            to: file("other-intermediate"), atomically: true, encoding: .utf8)
        try other.signingCertificate.pemRepresentation.write(
            to: file("other-signing"), atomically: true, encoding: .utf8)
        let answer = try ask(about: "other-signing", issuer: "other-intermediate")
        #expect(answer.status != 0)
        #expect(answer.output.contains("unauthorized"), "\(answer.output)")
    }

    @Test func bytesThatAreNoRequestGetMalformedRequest() throws {
        for garbage in [Data(), Data("hello".utf8), Data([0x30, 0x03, 0x02, 0x01, 0x01])] {
            let response = temp.url.appendingPathComponent("garbage.resp")
            try responder.respond(to: garbage, at: now).write(to: response)
            let answer = try ChildProcess.run(
                .tool("openssl"), ["ocsp", "-respin", response.path, "-resp_text", "-noverify"])
            #expect(answer.output.contains("malformedrequest"), "\(answer.output)")
        }
    }
}
