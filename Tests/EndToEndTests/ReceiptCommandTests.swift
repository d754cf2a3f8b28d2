import Crypto
import Foundation
import Receipts
import TestSupport
import Testing

/// `storefront receipt` and `storefront transaction verify`, run as the real binary on the
/// conformance receipts (compared with expected.json read at test time) and on JWS made here.
@Suite(.waitsOnProcesses) struct ReceiptCommandTests {
    static let packageRoot = Repository.root
    static let fixtures = packageRoot.appendingPathComponent("Tests/ReceiptsTests/Fixtures")

    static func expected() throws -> [String: [String: Any]] {
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: fixtures.appendingPathComponent("expected.json")))
        return try #require((json as? [String: Any])?["receipts"] as? [String: [String: Any]])
    }

    static var receiptNames: [String] { (try? expected().keys.sorted()) ?? [] }

    func run(_ args: [String]) throws -> StorefrontProcess.Result {
        try StorefrontProcess.run(args, cwd: Self.packageRoot)
    }

    /// Absent, null and "" all mean "no value", as in expected.json.
    func same(_ lhs: Any?, _ rhs: Any?) -> Bool {
        func normal(_ value: Any?) -> String? {
            switch value {
            case nil, is NSNull: return nil
            case let text as String: return text.isEmpty ? nil : text
            case let number as NSNumber: return number.stringValue
            default: return "\(value!)"
            }
        }
        return normal(lhs) == normal(rhs)
    }

    @Test(arguments: receiptNames)
    func jsonOutputMatchesExpected(name: String) throws {
        let want = try #require(try Self.expected()[name])
        let result = try run(["receipt", "Tests/ReceiptsTests/Fixtures/\(name)", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let got = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for key in want.keys where key != "inApp" && key != "signature" && key != "hash" {
            #expect(
                same(got[key], want[key]),
                "\(name) \(key): \(String(describing: got[key])) vs \(String(describing: want[key]))")
        }
        let gotInApp = try #require(got["inApp"] as? [[String: Any]])
        let wantInApp = try #require(want["inApp"] as? [[String: Any]])
        #expect(gotInApp.count == wantInApp.count)
        for (purchase, expected) in zip(gotInApp, wantInApp) {
            for key in Set(expected.keys).union(["cancellationDate", "originalTransactionID", "webOrderLineItemID"]) {
                #expect(same(purchase[key], expected[key]), "\(name) inApp \(key)")
            }
        }
    }

    @Test(arguments: receiptNames)
    func verifyAcceptsTheNamedRootAndRejectsTheOther(name: String) throws {
        let signature = try #require(try Self.expected()[name]?["signature"] as? [String: String])
        let good = try #require(signature["trustedRoot"])
        let bad = try #require(signature["mustRejectWithRoot"])
        let file = "Tests/ReceiptsTests/Fixtures/\(name)"
        let accepted = try run(["receipt", "verify", file, "--root", "Tests/ReceiptsTests/Fixtures/\(good)"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.hasPrefix("valid: "))
        let rejected = try run(["receipt", "verify", file, "--root", "Tests/ReceiptsTests/Fixtures/\(bad)"])
        #expect(rejected.status == 1)
        #expect(rejected.stderr.contains("not signed under the trusted root"))
    }

    @Test func verifyChecksTheDeviceHash() throws {
        let entry = try #require(try Self.expected()["receipt-sandbox-g5.b64"])
        let uuid = try #require((entry["hash"] as? [String: String])?["deviceIdentifierUUID"])
        let base = [
            "receipt", "verify", "Tests/ReceiptsTests/Fixtures/receipt-sandbox-g5.b64", "--root",
            "Tests/ReceiptsTests/Fixtures/AppleIncRootCertificate.cer",
        ]
        #expect(try run(base + ["--device-id", uuid]).status == 0)
        let other = try run(base + ["--device-id", "00000000-0000-0000-0000-000000000000"])
        #expect(other.status == 1)
        #expect(other.stderr.contains("another device"))
        #expect(try run(base + ["--device-id", "not-a-uuid"]).status == 2)
    }

    @Test func unreadableFilesNameTheProblem() throws {
        let missing = try run(["receipt", "Tests/ReceiptsTests/Fixtures/nope.b64"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.b64"))
        let notReceipt = try run(["receipt", "Tests/ReceiptsTests/Fixtures/PROVENANCE.md"])
        #expect(notReceipt.status == 1)
        #expect(notReceipt.stderr.contains("not a readable receipt"))
    }

    @Test func transactionVerifyWithRootAndXcodeSelfSigned() throws {
        let scratch = try TemporaryDirectory(prefix: "txverify")
        let directory = scratch.url
        let signedDate = Date(timeIntervalSince1970: 1_767_225_600)
        let authority = try CertificateAuthority.create(now: signedDate.addingTimeInterval(-60)).authority
        var payload = JWSTransactionDecodedPayload()
        payload.transactionId = "31"
        payload.productId = "com.example.sword"
        payload.bundleId = "com.example.storefront"
        payload.signedDate = signedDate
        payload.price = 990
        let jwsFile = directory.appendingPathComponent("tx.jws")
        try JWSSigner(authority: authority).sign(payload).write(to: jwsFile, atomically: true, encoding: .utf8)
        let rootFile = directory.appendingPathComponent("root.cer")
        try authority.exportRoot(to: rootFile)

        let ok = try run(["transaction", "verify", jwsFile.path, "--root", rootFile.path, "--json"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(ok.stdout.utf8)) as? [String: Any])
        #expect(printed["transactionId"] as? String == "31")
        #expect(printed["price"] as? Int == 990)
        #expect(printed["signedDate"] as? Int == 1_767_225_600_000)

        // Without --root only Xcode's single self-signed certificate is trusted.
        let untrusted = try run(["transaction", "verify", jwsFile.path])
        #expect(untrusted.status == 1)
        let key = try PrivateKey.generate(.p256)
        let xcodeCertificate = try CertificateIssuer.issue(
            commonName: "StoreKit Testing in Xcode", organization: "Apple", subjectKey: key, issuer: nil,
            issuerKey: key,
            serial: 3, notBefore: signedDate.addingTimeInterval(-60), notAfter: signedDate.addingTimeInterval(60),
            role: .signing)
        let xcodeFile = directory.appendingPathComponent("xcode.jws")
        try JWSSigner(chain: [xcodeCertificate], key: key).sign(payload).write(
            to: xcodeFile, atomically: true, encoding: .utf8)
        let xcode = try run(["transaction", "verify", xcodeFile.path])
        #expect(xcode.status == 0, "\(xcode.stderr)")
        #expect(xcode.stdout.hasPrefix("valid signed transaction 31"))

        // A changed payload is refused with its reason.
        var parts = try String(contentsOf: jwsFile, encoding: .utf8).split(separator: ".").map(String.init)
        payload.price = 1
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        parts[1] = Base64URL.encode(try encoder.encode(payload))
        try parts.joined(separator: ".").write(to: jwsFile, atomically: true, encoding: .utf8)
        let tampered = try run(["transaction", "verify", jwsFile.path, "--root", rootFile.path])
        #expect(tampered.status == 1)
        #expect(tampered.stderr.contains("signature does not match"))
    }
}
