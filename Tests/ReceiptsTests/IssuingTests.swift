import Crypto
import Foundation
import StoreKitValues
import TestSupport
import Testing

@testable import Receipts

@Suite(.waitsOnProcesses) struct IssuingTests {
    @Test(arguments: ConformanceFixtures.receiptNames)
    func conformancePayloadsSurviveEncodeDecode(name: String) throws {
        let decoder = ReceiptDecoder()
        let original = try decoder.decode(ConformanceFixtures.bytes(name))
        let again = try decoder.decodePayload(ReceiptEncoder().encodePayload(original))
        #expect(again == original)
    }

    @Test func issuedReceiptDecodesAndValidates() throws {
        let fixture = try IssuedReceiptFixture()
        let validator = try ReceiptValidator(trustedRoots: [fixture.rootDER])
        let result = validator.validate(
            fixture.der,
            expecting: .init(
                bundleID: "com.example.storefront", appVersion: "42",
                deviceIdentifier: IssuedReceiptFixture.deviceIdentifier))
        #expect(result == .valid(fixture.receipt))
        #expect(result.receipt?.inApp[2].cancellationDate != nil)
        #expect(result.receipt?.inApp[1].promotionalOfferIdentifier == "promo.spring")
        // Base64 of the same file is accepted too.
        let base64 = Array(Data(fixture.der).base64EncodedString(options: .lineLength76Characters).utf8)
        #expect(validator.validate(base64).receipt == fixture.receipt)
    }

    @Test func rsaChainIssuesValidReceipts() throws {
        let fixture = try IssuedReceiptFixture(configuration: .init(keyKind: .rsa(bits: 2048)))
        #expect(try ReceiptValidator(trustedRoots: [fixture.rootDER]).validate(fixture.der).receipt == fixture.receipt)
    }

    @Test func openSSLToolsAcceptIssuedReceipts() throws {
        let fixture = try IssuedReceiptFixture()
        let scratch = try TemporaryDirectory(prefix: "issued")
        let directory = scratch.url
        let receiptFile = directory.appendingPathComponent("receipt")
        try Data(fixture.der).write(to: receiptFile)
        let rootFile = directory.appendingPathComponent("root.cer")
        try fixture.authority.exportRoot(to: rootFile)
        let rootPEM = directory.appendingPathComponent("root.pem")
        try fixture.authority.root.pemRepresentation.write(to: rootPEM, atomically: true, encoding: .utf8)
        let payloadFile = directory.appendingPathComponent("payload")
        let verify = try ChildProcess.run(
            .tool("openssl"),
            [
                "cms", "-verify", "-inform", "DER", "-in", receiptFile.path, "-CAfile", rootPEM.path, "-purpose", "any",
                "-attime", String(Int(IssuedReceiptFixture.creationDate.timeIntervalSince1970)), "-out",
                payloadFile.path,
            ])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(Array(try Data(contentsOf: payloadFile)) == ReceiptEncoder().encodePayload(fixture.receipt))
        let parse = try ChildProcess.run(.tool("openssl"), ["asn1parse", "-inform", "DER", "-in", payloadFile.path])
        #expect(parse.status == 0)
        #expect(parse.output.contains("SET"))
    }
}
