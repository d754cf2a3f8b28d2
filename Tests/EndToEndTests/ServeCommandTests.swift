import Crypto
import Foundation
import Receipts
import TestSupport
import Testing

/// `storefront serve` and `storefront credentials` through the built binary: the server runs as
/// a child process over a data directory that other `storefront` processes change meanwhile.
@Suite(.waitsOnProcesses) struct ServeCommandTests {
    let cli: StorefrontCLI
    var data: URL { cli.data }

    init() throws { cli = try StorefrontCLI(prefix: "sf-serve") }

    func credentials() throws -> [String: Any] { try cli.object(["credentials"]) }

    /// A token as a backend makes it with the credentials' key.
    func token(_ credentials: [String: Any]) throws -> String {
        let pem = try String(contentsOfFile: try #require(credentials["privateKeyPath"] as? String), encoding: .utf8)
        let now = Int(Date().timeIntervalSince1970)
        let header = #"{"alg":"ES256","kid":"\#(credentials["keyID"]!)","typ":"JWT"}"#
        let payload =
            #"{"aud":"appstoreconnect-v1","bid":"\#(credentials["bundleID"]!)","exp":\#(now + 300),"iat":\#(now),"iss":"\#(credentials["issuerID"]!)"}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return input + "." + Base64URL.encode(try ECDSA.signES256(Array(input.utf8), key: PrivateKey(pem: pem)))
    }

    func get(_ url: String, token: String?) async throws -> (Int, Data) {
        let address = try #require(URL(string: url))
        let base = try #require(URL(string: "/", relativeTo: address)?.absoluteURL.absoluteString.dropLast())
        let answer = try await HTTPClient(base: try #require(URL(string: String(base)))).send(
            "GET", address.path, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        return (answer.status, answer.body)
    }

    /// The first line the child prints (its URL).
    static func firstLine(_ child: ChildProcess) -> String {
        let output = child.waitForStandardOutput { $0.contains("\n") } ?? ""
        return String(output.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    @Test func serveAnswersWhatOtherProcessesDoAtOnceAndStopsCleanlyOnSIGTERM() async throws {
        let credentials = try credentials()
        let server = try cli.start(["serve", "--port", "0"])
        let url = Self.firstLine(server)
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let marker = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent("server.json")))
                as? [String: Any])
        #expect(marker["url"] as? String == url)
        #expect(marker["pid"] as? Int == Int(server.processIdentifier))
        let second = try cli.run(["serve", "--port", "0"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("already runs on this data directory at \(url)"))

        // A purchase another process makes while the server runs is in its next answer.
        let bought = try cli.run(["buy", "com.storefront.demo.removeads", "--json"])
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(bought.stdout.utf8)) as? [String: Any])?["transactionID"]
                as? String)
        let (status, body) = try await get(url + "/inApps/v1/transactions/\(id)", token: try token(credentials))
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("signedTransactionInfo"))
        #expect(try await get(url + "/inApps/v1/transactions/\(id)", token: nil).0 == 401)

        kill(server.processIdentifier, SIGTERM)
        let result = server.wait()
        #expect(result.status == 0 && !result.signaled)
        #expect(result.stdout.contains("GET /inApps/v1/transactions/\(id) 200 "))
        #expect(result.stdout.contains("GET /inApps/v1/transactions/\(id) 401 "))
        #expect(result.stdout.hasSuffix("stopped (SIGTERM)\n"))
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("server.json").path))
        // The lease is released: a new server may start on the directory.
        let again = try cli.start(["serve", "--port", "0"])
        #expect(Self.firstLine(again).hasPrefix("http://127.0.0.1:"))
        kill(again.processIdentifier, SIGINT)
        #expect(again.wait().stdout.hasSuffix("stopped (SIGINT)\n"))
    }

    @Test func serveListensOnThePortOfTheServerURLSettingByDefault() throws {
        // A port the kernel just gave out, free again once that server stopped.
        let probe = try cli.start(["serve", "--port", "0"])
        let url = Self.firstLine(probe)
        kill(probe.processIdentifier, SIGINT)
        let probed = probe.wait()
        #expect(probed.status == 0)
        #expect(probed.stderr.contains("note: the certificates name http://127.0.0.1:8490/ocsp"), "\(probed.stderr)")
        #expect(try cli.run(["store", "set", "server-url", url]).status == 0)
        let server = try cli.start(["serve"])
        #expect(Self.firstLine(server) == url)
        kill(server.processIdentifier, SIGINT)
        let result = server.wait()
        #expect(result.status == 0)
        #expect(!result.stderr.contains("note:"), "the certificates name this server")
    }

    @Test func serveRefusesAHostThatIsNoAddress() throws {
        let result = try cli.run(["serve", "--host", "example.com"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot serve on \"example.com\""))
        #expect(try cli.run(["serve", "--port", "99999"]).status == 2)
    }

    @Test func credentialsAreMadeOnceWithAPrivateKeyAndAcceptAUsersOwnKey() throws {
        let first = try credentials()
        #expect(try credentials()["keyID"] as? String == first["keyID"] as? String)
        let keyPath = try #require(first["privateKeyPath"] as? String)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try String(contentsOfFile: keyPath, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(FileManager.default.fileExists(atPath: try #require(first["rootCertificatePath"] as? String)))
        #expect(first["environment"] as? String == "Sandbox")
        #expect(UUID(uuidString: try #require(first["issuerID"] as? String)) != nil)

        let own = data.appendingPathComponent("AuthKey_OWNKEY1234.p8")
        try PrivateKey.generate(.p256).pemRepresentation().write(to: own, atomically: true, encoding: .utf8)
        let issuer = "57246542-96fe-1a63-e053-0824d011072a"
        #expect(
            try cli.run(["credentials", "--key", own.path, "--key-id", "OWNKEY1234", "--issuer-id", issuer]).status == 0
        )
        let installed = try credentials()
        #expect(installed["keyID"] as? String == "OWNKEY1234")
        #expect(installed["issuerID"] as? String == issuer)
        #expect(installed["privateKeyPath"] as? String == own.path)

        let bad = data.appendingPathComponent("bad.p8")
        try "not a key".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try cli.run(["credentials", "--key", bad.path, "--key-id", "K1", "--issuer-id", issuer])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is not an EC P-256 private key"))
        #expect(try cli.run(["credentials", "--key", own.path]).status == 2)
        #expect(try credentials()["keyID"] as? String == "OWNKEY1234")
    }
}
