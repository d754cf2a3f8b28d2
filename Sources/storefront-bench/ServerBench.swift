import AppStoreServer
import Catalog
import Crypto
import Foundation
import LocalAppStore
import Receipts
import StoreCore

/// `make bench server`: the local App Store Server under `wrk` with 64 connections, beside
/// nginx serving a static file of the same size in the same run, and a history page at 100
/// and at 100,000 transactions.
struct ServerBench: BenchSection {
    let name = "server"
    let summary = "App Store Server API under wrk (64 connections) beside nginx; a history page at 100 vs 100,000 transactions"

    static let connections = 64
    static let seconds = 5

    func run(_ report: BenchReport) throws {
        guard let wrk = Self.which("wrk"), let nginx = Self.which("nginx", extra: ["/usr/sbin/nginx"]) else {
            throw Blocking.Failure(description: "wrk and nginx are needed (make deps installs them)")
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("serverbench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let small = try Blocking.await { try await Self.server(transactions: 100, in: root.appendingPathComponent("small")) }
        let large = try Blocking.await { try await Self.server(transactions: 100_000, in: root.appendingPathComponent("large")) }
        defer {
            _ = try? Blocking.await { await small.server.stop() }
            _ = try? Blocking.await { await large.server.stop() }
        }

        // Get Transaction Info against nginx serving the same bytes.
        let path = "/inApps/v1/transactions/\(small.firstID)"
        let inProcess = try Blocking.await { () async -> Double in
            let request = HTTPRequest(method: "GET", path: path, headers: ["authorization": "Bearer \(small.token)"])
            let start = DispatchTime.now()
            for _ in 0..<5000 { _ = await small.server.answer(request) }
            return 5000 / (Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
        }
        report.line("Get Transaction Info in process", String(format: "%.0f req/s", inProcess), "routing, token, snapshot, signing, JSON; no HTTP")
        let body = try Self.fetch(small.server.baseURL.absoluteString + path, token: small.token)
        // Outside the 0700 data directories: nginx's workers run as another user.
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("serverbench-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: site) }
        try body.write(to: site.appendingPathComponent("transaction.json"))
        let nginxServer = try NginxProcess(executable: nginx, site: site, directory: site.appendingPathComponent(".nginx"))
        defer { nginxServer.stop() }
        let ours = try Self.wrk(wrk, small.server.baseURL.absoluteString + path, token: small.token)
        let theirs = try Self.wrk(wrk, "http://127.0.0.1:\(nginxServer.port)/transaction.json", token: nil)
        let echoBody = body
        let echo = try MicroHTTPDaemon(configuration: .init()) { _ in HTTPResponse.json(200, echoBody) }
        let echoRate = try Self.wrk(wrk, "http://127.0.0.1:\(echo.port)/x", token: nil)
        try Blocking.await { await echo.stop() }
        report.line("MHD + async bridge, constant answer", String(format: "%.0f req/s", echoRate.rps), "the HTTP layer's own ceiling")
        report.line("response size", "\(body.count) B", "signedTransactionInfo, and the same file for nginx")
        report.line("Get Transaction Info: requests/s", String(format: "%.0f", ours.rps), "nginx \(String(format: "%.0f", theirs.rps)) → \(BenchReport.ratio(ours.rps / theirs.rps)) of nginx (goal ≥ 0.5×)")
        report.line("Get Transaction Info: p99 latency", BenchReport.duration(ours.p99), "nginx \(BenchReport.duration(theirs.p99)) → \(BenchReport.ratio(ours.p99 / max(theirs.p99, 1e-9))) of nginx's")

        // A page of history costs the same whatever the history's length.
        let page100 = try Self.wrk(wrk, small.server.baseURL.absoluteString + "/inApps/v2/history/\(small.firstID)", token: small.token)
        let page100k = try Self.wrk(wrk, large.server.baseURL.absoluteString + "/inApps/v2/history/\(large.firstID)", token: large.token)
        report.line("history page at 100 transactions", String(format: "%.0f req/s", page100.rps), "p99 \(BenchReport.duration(page100.p99))")
        report.line("history page at 100,000 transactions", String(format: "%.0f req/s", page100k.rps), "p99 \(BenchReport.duration(page100k.p99))")
        report.line("cost of a page at 100,000 vs 100 (wrk)", BenchReport.ratio(page100.rps / page100k.rps), "goal ≤ 1.2×")
        // The same in process, best of three, away from the TCP stack's noise.
        func pageTime(_ served: Served) throws -> Double {
            try Blocking.await { () async -> Double in
                let request = HTTPRequest(
                    method: "GET", path: "/inApps/v2/history/\(served.firstID)", headers: ["authorization": "Bearer \(served.token)"])
                var best = Double.infinity
                for _ in 0..<3 {
                    let start = DispatchTime.now()
                    for _ in 0..<500 { _ = await served.server.answer(request) }
                    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 / 500)
                }
                return best
            }
        }
        let small100 = try pageTime(small)
        let large100k = try pageTime(large)
        report.line("a page in process at 100 / 100,000", "\(BenchReport.duration(small100)) / \(BenchReport.duration(large100k))", "→ \(BenchReport.ratio(large100k / small100)) (goal ≤ 1.2×)")
    }

    struct Served {
        let server: AppStoreServer
        let token: String
        let firstID: String
    }

    /// A store whose journal holds `transactions` purchases, written straight into the journal
    /// (the format `StoreJournal` reads: one `entry` record a line), and a server over it.
    static func server(transactions count: Int, in directory: URL) async throws -> Served {
        let catalog = StoreKitConfiguration(
            file: "bench.storekit",
            products: [StoreKitConfiguration.Product(id: "bench.coins", referenceName: "coins", kind: .consumable, price: Decimal(string: "0.99") ?? 1)])
        let state = LocalAppStoreConfiguration.stateDirectory(inDataDirectory: directory)
        let configuration = LocalAppStoreConfiguration(catalog: catalog, stateDirectory: state, initialLatencyMilliseconds: 0)
        do { _ = try LocalAppStore(configuration: configuration) }
        let journal = try FileHandle(forWritingTo: state.appendingPathComponent("journal.jsonl"))
        try journal.seekToEnd()
        let encoder = JSONEncoder()
        let start = Date()
        var lines = Data()
        for index in 0..<count {
            let id = String(2_000_000_000_000_001 + UInt64(index))
            let transaction = StoreCore.Transaction(
                transactionID: id, productID: "bench.coins", productType: .consumable, payment: Payment(productID: "bench.coins"),
                state: .purchased, purchaseDate: start.addingTimeInterval(Double(index)), price: Decimal(string: "0.99"),
                currencyCode: "USD", storefront: "USA")
            lines.append(try encoder.encode(SeedRecord(entry: .init(transaction: transaction, accountID: StoreAccount.localTester.id))))
            lines.append(UInt8(ascii: "\n"))
            if lines.count > 1 << 22 {
                try journal.write(contentsOf: lines)
                lines.removeAll(keepingCapacity: true)
            }
        }
        try journal.write(contentsOf: lines)
        try journal.close()
        let store = try LocalAppStore(configuration: configuration)
        let credentials = try APICredentials.loadOrCreate(dataDirectory: directory)
        let server = try AppStoreServer(store: store, credentials: credentials)
        return Served(server: server, token: try token(credentials, bundleID: configuration.bundleID), firstID: "2000000000000001")
    }

    /// The journal's `entry` record, as `StoreJournal` writes it.
    private struct SeedRecord: Encodable {
        struct Entry: Encodable {
            let transaction: StoreCore.Transaction
            let accountID: String
            var charged = true
            var finished = true
        }
        var kind = "entry"
        let entry: Entry
    }

    /// An hour-long token for the bench's requests.
    static func token(_ credentials: APICredentials, bundleID: String) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let header = #"{"alg":"ES256","kid":"\#(credentials.keyID)","typ":"JWT"}"#
        let payload = #"{"aud":"appstoreconnect-v1","bid":"\#(bundleID)","exp":\#(now + 3500),"iat":\#(now),"iss":"\#(credentials.issuerID)"}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return input + "." + Base64URL.encode(try ECDSA.signES256(Array(input.utf8), key: PrivateKey(pem: credentials.privateKeyPEM())))
    }

    static func fetch(_ url: String, token: String) throws -> Data {
        let result = try ChildProcess.output("curl", ["-sf", "-H", "Authorization: Bearer \(token)", url])
        guard !result.isEmpty else { throw Blocking.Failure(description: "\(url) answered nothing") }
        return result
    }

    struct WrkResult {
        let rps: Double
        let p99: Double
    }

    /// Runs wrk (2 threads, 64 connections) and reads its requests/s and 99th percentile.
    static func wrk(_ wrk: String, _ url: String, token: String?) throws -> WrkResult {
        var arguments = ["-t2", "-c\(connections)", "-d\(seconds)s", "--latency"]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        let output = String(decoding: try ChildProcess.output(wrk, arguments + [url]), as: UTF8.self)
        guard !output.contains("Non-2xx") else { throw Blocking.Failure(description: "wrk saw errors from \(url):\n\(output)") }
        var rps: Double?
        var p99: Double?
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.first == "Requests/sec:", fields.count > 1 { rps = Double(fields[1]) }
            if fields.first == "99%", fields.count > 1 { p99 = seconds(String(fields[1])) }
        }
        guard let rps, let p99 else { throw Blocking.Failure(description: "cannot read wrk's output:\n\(output)") }
        return WrkResult(rps: rps, p99: p99)
    }

    /// `3.21ms`, `812.00us`, `1.02s` in seconds.
    static func seconds(_ text: String) -> Double? {
        for (suffix, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }

    static func which(_ name: String, extra: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map { "\($0)/\(name)" } + extra
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// nginx on a free loopback port with a temporary configuration, serving one directory.
final class NginxProcess {
    let port: UInt16
    private let process = Process()

    init(executable: String, site: URL, directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        // A free port: let the kernel choose one for a moment, then give it to nginx.
        let probe = try MicroHTTPDaemon(configuration: .init()) { _ in HTTPResponse(status: 200) }
        port = probe.port
        try Blocking.await { await probe.stop() }
        let configuration = """
            worker_processes 2;
            daemon off;
            pid \(directory.path)/nginx.pid;
            error_log \(directory.path)/error.log;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(directory.path)/body;
                proxy_temp_path \(directory.path)/proxy;
                fastcgi_temp_path \(directory.path)/fastcgi;
                uwsgi_temp_path \(directory.path)/uwsgi;
                scgi_temp_path \(directory.path)/scgi;
                default_type application/json;
                server { listen 127.0.0.1:\(port); root \(site.path); }
            }
            """
        let file = directory.appendingPathComponent("nginx.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-p", directory.path, "-c", file.path, "-e", directory.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready when it answers (curl retries connection refusals itself).
        _ = try ChildProcess.output("curl", ["-s", "-o", "/dev/null", "--retry", "50", "--retry-connrefused", "--retry-delay", "0", "http://127.0.0.1:\(port)/"])
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
