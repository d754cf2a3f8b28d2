import Foundation
import TestSupport
import Testing

/// `storefront signed`: the store's signed items as a backend receives them, and the OCSP
/// answers of its chain; bad input gets a clear error and a non-zero exit.
@Suite(.waitsOnProcesses) struct SignedCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    let scratch: TemporaryDirectory
    /// The data directory, which the first command creates.
    var data: URL { scratch.url("data") }

    init() throws { scratch = try TemporaryDirectory(prefix: "signed") }

    func run(_ args: [String]) throws -> StorefrontProcess.Result {
        try StorefrontProcess.run(["--data-dir", data.path] + args, cwd: Self.packageRoot)
    }

    @Test func printsEverySignedItemInTheStoresEnvironment() throws {
        #expect(try run(["store", "set", "latency", "0"]).status == 0)
        let bought = try run(["buy", "com.storefront.demo.removeads"])
        #expect(bought.status == 0, "\(bought.stderr)")
        let printed = try run(["signed", "--json"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any])
        #expect(json["environment"] as? String == "Sandbox")
        #expect(json["ocspURL"] as? String == "http://127.0.0.1:8490/ocsp")
        let transactions = try #require(json["transactions"] as? [[String: Any]])
        #expect(transactions.count == 1)
        #expect((transactions.first?["signedTransaction"] as? String)?.split(separator: ".").count == 3)
        #expect((json["appTransaction"] as? String)?.split(separator: ".").count == 3)
        #expect(Data(base64Encoded: json["receipt"] as? String ?? "") != nil)
        let root = try #require(json["rootCertificate"] as? String)
        #expect(FileManager.default.fileExists(atPath: root))

        #expect(try run(["store", "set", "environment", "production"]).status == 0)
        let text = try run(["signed"])
        #expect(text.stdout.hasPrefix("Environment: Production"), "\(text.stdout)")
        #expect(text.stdout.contains("app transaction: ey"))
    }

    @Test func badInputIsRefusedClearly() throws {
        let missing = try run(["signed", "ocsp", "/nonexistent/request.der"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("/nonexistent/request.der"), "\(missing.stderr)")
        let extra = try run(["signed", "everything"])
        #expect(extra.status == 2, "\(extra.stderr)")
        let environment = try run(["store", "set", "environment", "Staging"])
        #expect(environment.status == 2, "a value the setting does not take is a usage error")
        #expect(environment.stderr.contains("Sandbox, Production, Xcode, LocalTesting"), "\(environment.stderr)")
        // Garbage is answered as OCSP answers it: a malformedRequest response, not a crash.
        let garbage = data.appendingPathComponent("garbage.der")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data("not a request".utf8).write(to: garbage)
        let answer = try run(["signed", "ocsp", garbage.path])
        #expect(answer.status == 0)
        #expect(
            Data(base64Encoded: answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
                == Data([0x30, 0x03, 0x0A, 0x01, 0x01]))
    }
}
