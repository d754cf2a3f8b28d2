import Crypto
import Foundation
import Receipts
import TestSupport
import Testing

@testable import AppStoreServer

/// `POST /ocsp`: the store's OCSP responder at the URL its certificates name, asked by
/// OpenSSL's own `openssl ocsp` client over HTTP.
@Suite struct OCSPEndpointTests {
    @Test func opensslsClientFindsTheLeafAndIntermediateGoodAtTheURLTheyName() async throws {
        let fixture = try await ServerFixture()
        try await fixture.store.settings.set(name: "server-url", value: fixture.client.base.absoluteString)
        let bought = try await fixture.buy(ServerFixture.pro)
        let chain = try Self.chain(of: try #require(bought.signedTransaction))
        let ocspURL = fixture.client.base.absoluteString + "/ocsp"
        #expect(chain[0].ocspResponderURLs == [ocspURL])
        #expect(chain[1].ocspResponderURLs == [ocspURL])
        let files = ["leaf", "intermediate", "root"].map { fixture.directory.appendingPathComponent("\($0).pem") }
        for (file, certificate) in zip(files, chain) {
            try certificate.pemRepresentation.write(to: file, atomically: true, encoding: .utf8)
        }
        for (subject, issuer) in [(files[0], files[1]), (files[1], files[2])] {
            let answer = try await ChildProcess.runDetached(
                .tool("openssl"),
                [
                    "ocsp", "-url", ocspURL, "-issuer", issuer.path, "-cert", subject.path, "-CAfile", files[2].path,
                ])
            #expect(answer.status == 0 && answer.output.contains(": good"), "\(answer.output)")
        }
        await fixture.close()
    }

    @Test func theAnswerIsAnOCSPResponseWithoutATokenAndOnlyPOSTIsServed() async throws {
        let fixture = try await ServerFixture()
        let journal = try fixture.stateFiles()
        let garbage = try await fixture.client.send(
            "POST", "/ocsp", headers: ["Content-Type": "application/ocsp-request"], body: Data([0x30, 0x00]))
        #expect(garbage.status == 200)
        #expect(garbage.headers["content-type"] == "application/ocsp-response")
        // OCSPResponseStatus malformedRequest (1): SEQUENCE { ENUMERATED 1 }.
        #expect(Array(garbage.body) == [0x30, 0x03, 0x0A, 0x01, 0x01])
        let get = try await fixture.client.send("GET", "/ocsp")
        #expect(get.status == 405)
        #expect(get.headers["allow"] == "POST")
        #expect(try fixture.stateFiles() == journal)
        await fixture.close()
    }

    /// The certificates of a JWS's `x5c` header, leaf first.
    static func chain(of jws: String) throws -> [X509Certificate] {
        let header = try #require(jws.split(separator: ".").first.flatMap { Base64URL.decode($0) })
        let x5c = try #require(try JSONDecoder().decode(JWSHeader.self, from: Data(header)).x5c)
        return try x5c.map { try X509Certificate(der: Array(try #require(Data(base64Encoded: $0)))) }
    }
}
