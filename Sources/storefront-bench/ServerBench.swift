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
    let summary =
        "App Store Server API under wrk (64 connections) beside nginx; a history page at 100 vs 100,000 transactions"

    static let connections = 64
    static let seconds = 5
    /// wrk runs of each server, alternated, whose median is reported: one run on a machine
    /// shared with other work moves by ±30%, a median of alternated runs by far less.
    static let rounds = 3
    static let historyRounds = 7
    /// Seconds of each history run (more, shorter runs: a median of more samples).
    static let historySeconds = 3
    /// In-process page timings, alternated, whose median is reported.
    static let inProcessRounds = 9

    func run(_ report: BenchReport) throws {
        guard let wrk = Self.which("wrk"), let nginx = Self.which("nginx", extra: ["/usr/sbin/nginx"]) else {
            throw Blocking.Failure(description: "wrk and nginx are needed (make deps installs them)")
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("serverbench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let small = try Blocking.await {
            try await Self.server(transactions: 100, in: root.appendingPathComponent("small"))
        }
        let large = try Blocking.await {
            try await Self.server(transactions: 100_000, in: root.appendingPathComponent("large"))
        }
        // The same stores served computing every answer (no `AnswerCache`), and with every
        // request through the store's actor besides (as before `answerNow`).
        let computing = try AppStoreServer(
            store: small.server.store, credentials: small.credentials,
            configuration: .init().benchmarking(keepsAnswers: false))
        let computingLarge = try AppStoreServer(
            store: large.server.store, credentials: large.credentials,
            configuration: .init().benchmarking(keepsAnswers: false))
        let viaActor = try AppStoreServer(
            store: small.server.store, credentials: small.credentials,
            configuration: .init().benchmarking(answersReadsOnHTTPThreads: false, keepsAnswers: false))
        defer {
            for server in [small.server, large.server, computing, computingLarge, viaActor] {
                _ = try? Blocking.await { await server.stop() }
            }
        }

        // Get Transaction Info against nginx serving the same bytes.
        let path = "/inApps/v1/transactions/\(small.firstID)"
        let request = HTTPRequest(method: "GET", path: path, headers: ["authorization": "Bearer \(small.token)"])
        let inProcess = try Blocking.await { () async -> Double in
            let start = DispatchTime.now()
            for _ in 0..<5000 { _ = await viaActor.answer(request) }
            return 5000 / (Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
        }
        func rate(_ server: AppStoreServer) throws -> Double {
            try Self.warm(server, request)
            let start = DispatchTime.now()
            for _ in 0..<20_000 { _ = server.answerNow(request) }
            return 20_000 / (Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
        }
        let computed = try rate(computing)
        let kept = try rate(small.server)
        report.line(
            "Get Transaction Info in process, via the actor", String(format: "%.0f req/s", inProcess),
            "answer: routing, token, the actor's snapshot, signing, JSON; no HTTP")
        report.line(
            "Get Transaction Info in process, now", String(format: "%.0f req/s", computed),
            "answerNow: the same from the published snapshot (one stat)")
        report.line(
            "Get Transaction Info in process, kept", String(format: "%.0f req/s", kept),
            "answerNow with the answer kept for the state (the default)")
        let body = try Self.fetch(small.server.baseURL.absoluteString + path, token: small.token)
        // Outside the 0700 data directories: nginx's workers run as another user.
        let site = FileManager.default.temporaryDirectory.appendingPathComponent(
            "serverbench-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: site, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: site) }
        try body.write(to: site.appendingPathComponent("transaction.json"))
        let nginxServer = try NginxProcess(
            executable: nginx, site: site, directory: site.appendingPathComponent(".nginx"))
        defer { nginxServer.stop() }
        var ours: [WrkResult] = []
        var theirs: [WrkResult] = []
        for _ in 0..<Self.rounds {
            ours.append(try Self.wrk(wrk, small.server.baseURL.absoluteString + path, token: small.token))
            theirs.append(try Self.wrk(wrk, "http://127.0.0.1:\(nginxServer.port)/transaction.json", token: nil))
        }
        let actorRate = try Self.wrk(wrk, viaActor.baseURL.absoluteString + path, token: small.token)
        let echoBody = body
        let echo = try MicroHTTPDaemon(configuration: .init()) { _ in HTTPResponse.json(200, echoBody) }
        let echoRate = try Self.wrk(wrk, "http://127.0.0.1:\(echo.port)/x", token: nil)
        try Blocking.await { await echo.stop() }
        let echoNow = try MicroHTTPDaemon(configuration: .init(), immediate: { _ in HTTPResponse.json(200, echoBody) })
        { _ in .empty(500) }
        let echoNowRate = try Self.wrk(wrk, "http://127.0.0.1:\(echoNow.port)/x", token: nil)
        try Blocking.await { await echoNow.stop() }
        report.line(
            "MHD + async bridge, constant answer", String(format: "%.0f req/s", echoRate.rps),
            "suspend, task, resume: the ceiling of the actor path")
        report.line(
            "MHD on its thread, constant answer", String(format: "%.0f req/s", echoNowRate.rps),
            "the HTTP layer's own ceiling")
        report.line(
            "Get Transaction Info via the actor", String(format: "%.0f req/s", actorRate.rps),
            "every request suspended and answered through the store's actor")
        report.line("response size", "\(body.count) B", "signedTransactionInfo, and the same file for nginx")
        let rps = CommandTiming.median(ours.map(\.rps))
        let nginxRPS = CommandTiming.median(theirs.map(\.rps))
        let p99 = CommandTiming.median(ours.map(\.p99))
        let nginxP99 = CommandTiming.median(theirs.map(\.p99))
        report.line(
            "Get Transaction Info: requests/s", String(format: "%.0f", rps),
            "nginx \(String(format: "%.0f", nginxRPS)) → \(BenchReport.ratio(rps / nginxRPS)) of nginx (goal ≥ 0.5×; median of \(Self.rounds) alternated runs: \(Self.list(ours.map(\.rps))) vs \(Self.list(theirs.map(\.rps))))"
        )
        report.line(
            "Get Transaction Info: p99 latency", BenchReport.duration(p99),
            "nginx \(BenchReport.duration(nginxP99)) → \(BenchReport.ratio(p99 / max(nginxP99, 1e-9))) of nginx's")
        let computedRate = try Self.wrk(wrk, computing.baseURL.absoluteString + path, token: small.token)
        report.line(
            "Get Transaction Info, computed each time", String(format: "%.0f req/s", computedRate.rps),
            "on MHD's thread, no kept answer: routing into the state, signing cache, JSON")
        try history(
            report, wrk: wrk, small: computing, large: computingLarge, tokens: (small.token, large.token),
            firstID: small.firstID)
        let keptPage = try Self.wrk(
            wrk, large.server.baseURL.absoluteString + "/inApps/v2/history/\(large.firstID)", token: large.token)
        report.line(
            "history page at 100,000, kept", String(format: "%.0f req/s", keptPage.rps),
            "the same page asked again while nothing changed (the default)")
    }

    /// A page of history costs the same whatever the history's length: computed each time
    /// (no kept answers), over wrk and in process, alternating the two stores. Over wrk the
    /// cost is the server's CPU time per page (this process's, where the servers run, user and
    /// system), which the rest of the machine's load moves far less than requests/s; the
    /// median of the runs.
    func history(
        _ report: BenchReport, wrk: String, small: AppStoreServer, large: AppStoreServer,
        tokens: (small: String, large: String),
        firstID: String
    ) throws {
        let page = "/inApps/v2/history/\(firstID)"
        var page100: [WrkResult] = []
        var page100k: [WrkResult] = []
        for _ in 0..<Self.historyRounds {
            page100.append(
                try Self.wrk(
                    wrk, small.baseURL.absoluteString + page, token: tokens.small, duration: Self.historySeconds))
            page100k.append(
                try Self.wrk(
                    wrk, large.baseURL.absoluteString + page, token: tokens.large, duration: Self.historySeconds))
        }
        let cpu100 = CommandTiming.median(page100.map(\.cpuPerRequest))
        let cpu100k = CommandTiming.median(page100k.map(\.cpuPerRequest))
        report.line(
            "history page at 100, computed", String(format: "%.0f req/s", CommandTiming.median(page100.map(\.rps))),
            "p99 \(BenchReport.duration(CommandTiming.median(page100.map(\.p99)))); runs \(Self.list(page100.map(\.rps)))"
        )
        report.line(
            "history page at 100,000, computed",
            String(format: "%.0f req/s", CommandTiming.median(page100k.map(\.rps))),
            "p99 \(BenchReport.duration(CommandTiming.median(page100k.map(\.p99)))); runs \(Self.list(page100k.map(\.rps)))"
        )
        let rate100 = CommandTiming.median(page100.map(\.rps))
        let rate100k = CommandTiming.median(page100k.map(\.rps))
        report.line(
            "requests/s of a page at 100 vs 100,000", BenchReport.ratio(rate100 / rate100k),
            "medians of \(Self.historyRounds) alternated wrk runs: moved by the machine's load")
        report.line(
            "server CPU per page at 100 / 100,000",
            "\(BenchReport.duration(cpu100)) / \(BenchReport.duration(cpu100k))",
            "→ \(BenchReport.ratio(cpu100k / cpu100)) (goal ≤ 1.2×; median of \(Self.historyRounds) alternated wrk runs each)"
        )
        // The same in process, away from the TCP stack's noise: the median of alternated runs.
        func pageTime(_ server: AppStoreServer, _ token: String) throws -> Double {
            let request = HTTPRequest(method: "GET", path: page, headers: ["authorization": "Bearer \(token)"])
            try Self.warm(server, request)
            let start = DispatchTime.now()
            for _ in 0..<300 { _ = server.answerNow(request) }
            return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 / 300
        }
        var small100: [Double] = []
        var large100k: [Double] = []
        for _ in 0..<Self.inProcessRounds {
            small100.append(try pageTime(small, tokens.small))
            large100k.append(try pageTime(large, tokens.large))
        }
        let time100 = CommandTiming.median(small100)
        let time100k = CommandTiming.median(large100k)
        report.line(
            "a page in process at 100 / 100,000",
            "\(BenchReport.duration(time100)) / \(BenchReport.duration(time100k))",
            "→ \(BenchReport.ratio(time100k / time100)) (goal ≤ 1.2×; median of \(Self.inProcessRounds) alternated runs)"
        )
    }

    /// Answers `request` once through the actor (publishing the store's state), and checks
    /// that `answerNow` then answers it with a 200 (what the timed loops call).
    static func warm(_ server: AppStoreServer, _ request: HTTPRequest) throws {
        _ = try Blocking.await { await server.answer(request) }
        guard server.answerNow(request)?.status == 200 else {
            throw Blocking.Failure(description: "answerNow did not answer \(request.path) from the published state")
        }
    }

    /// `12345 / 12001 / 13020`.
    static func list(_ values: [Double]) -> String {
        values.map { String(format: "%.0f", $0) }.joined(separator: " / ")
    }

    struct Served {
        let server: AppStoreServer
        let credentials: APICredentials
        let token: String
        let firstID: String
    }

    /// A store whose journal holds `transactions` purchases, written straight into the journal
    /// (the format `StoreJournal` reads: one `entry` record a line), and a server over it.
    static func server(transactions count: Int, in directory: URL) async throws -> Served {
        let catalog = StoreKitConfiguration(
            file: "bench.storekit",
            products: [
                StoreKitConfiguration.Product(
                    id: "bench.coins", referenceName: "coins", kind: .consumable, price: Decimal(string: "0.99") ?? 1)
            ])
        let state = LocalAppStoreConfiguration.stateDirectory(inDataDirectory: directory)
        let configuration = LocalAppStoreConfiguration(
            catalog: catalog, stateDirectory: state, initialLatencyMilliseconds: 0)
        do { _ = try LocalAppStore(configuration: configuration) }
        let journal = try FileHandle(forWritingTo: state.appendingPathComponent("journal.jsonl"))
        try journal.seekToEnd()
        let encoder = JSONEncoder()
        let start = Date()
        var lines = Data()
        for index in 0..<count {
            let id = String(2_000_000_000_000_001 + UInt64(index))
            let transaction = StoreCore.Transaction(
                transactionID: id, productID: "bench.coins", productType: .consumable,
                payment: Payment(productID: "bench.coins"),
                state: .purchased, purchaseDate: start.addingTimeInterval(Double(index)),
                price: Decimal(string: "0.99"),
                currencyCode: "USD", storefront: "USA")
            lines.append(
                try encoder.encode(
                    SeedRecord(entry: .init(transaction: transaction, accountID: StoreAccount.localTester.id))))
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
        return Served(
            server: server, credentials: credentials, token: try token(credentials, bundleID: configuration.bundleID),
            firstID: "2000000000000001")
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
        let payload =
            #"{"aud":"appstoreconnect-v1","bid":"\#(bundleID)","exp":\#(now + 3500),"iat":\#(now),"iss":"\#(credentials.issuerID)"}"#
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return input + "."
            + Base64URL.encode(
                try ECDSA.signES256(Array(input.utf8), key: PrivateKey(pem: credentials.privateKeyPEM())))
    }

    static func fetch(_ url: String, token: String) throws -> Data {
        let result = try ChildProcess.output("curl", ["-sf", "-H", "Authorization: Bearer \(token)", url])
        guard !result.isEmpty else { throw Blocking.Failure(description: "\(url) answered nothing") }
        return result
    }

    struct WrkResult: Sendable {
        let rps: Double
        let p99: Double
        /// This process's CPU time (user and system) per request answered during the run.
        let cpuPerRequest: Double
    }

    /// This process's CPU time so far, user and system, in seconds.
    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Runs wrk (2 threads, 64 connections) and reads its requests/s and 99th percentile.
    static func wrk(
        _ wrk: String, _ url: String, token: String?, duration: Int = seconds, connections: Int = connections,
        threads: Int = 2
    ) throws -> WrkResult {
        var arguments = ["-t\(threads)", "-c\(connections)", "-d\(duration)s", "--latency"]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        let cpuBefore = processCPU()
        let output = String(decoding: try ChildProcess.output(wrk, arguments + [url]), as: UTF8.self)
        let cpu = processCPU() - cpuBefore
        guard !output.contains("Non-2xx") else {
            throw Blocking.Failure(description: "wrk saw errors from \(url):\n\(output)")
        }
        var rps: Double?
        var p99: Double?
        var requests: Double?
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count > 2, fields[1] == "requests", fields[2] == "in" { requests = Double(fields[0]) }
            if fields.first == "Requests/sec:", fields.count > 1 { rps = Double(fields[1]) }
            if fields.first == "99%", fields.count > 1 { p99 = seconds(String(fields[1])) }
        }
        guard let rps, let p99, let requests, requests > 0 else {
            throw Blocking.Failure(description: "cannot read wrk's output:\n\(output)")
        }
        return WrkResult(rps: rps, p99: p99, cpuPerRequest: cpu / requests)
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
    private let child: SpawnedChild

    init(executable: String, site: URL, directory: URL) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
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
        child = try SpawnedChild(
            executable,
            ["-p", directory.path, "-c", file.path, "-e", directory.appendingPathComponent("error.log").path])
        // Ready when it answers (curl retries connection refusals itself).
        _ = try ChildProcess.output(
            "curl",
            [
                "-s", "-o", "/dev/null", "--retry", "50", "--retry-connrefused", "--retry-delay", "0",
                "http://127.0.0.1:\(port)/",
            ])
    }

    func stop() {
        child.terminate()
        child.wait()
    }
}
