import Crypto
import Foundation
import SystemIO
import Vault

/// The vault: durable single-item writes beside a bare `write` + `fdatasync` loop (the disk's
/// limit) and SQLite (WAL, synchronous=FULL) doing the same upserts; cost per write and open
/// time at 1,000, 10,000 and 100,000 items; bulk AEAD seal/open beside `openssl speed`.
struct VaultBench: BenchSection {
    let name = "vault"
    let summary =
        "durable writes vs write+fdatasync and SQLite WAL FULL; scaling to 100,000 items; AEAD vs openssl speed"
    var writes = 2000
    var sizes = [1_000, 10_000, 100_000]
    var bufferSize = 16 * 1024

    typealias Failure = BenchFailure

    func run(_ report: BenchReport) throws {
        try ScratchDirectory.with("vault") { try run(report, in: $0) }
    }

    private func run(_ report: BenchReport, in directory: URL) throws {
        try durableWrites(report, directory)
        try scaling(report, directory)
        try aeadThroughput(report)
    }

    // MARK: - Durable single-item writes

    /// The three take turns, one write each per round, so that load from anything else on the
    /// machine falls on all of them alike. A write that follows another's pays for the journal
    /// commit that one left (on ext4 an `fdatasync` commits every file's pending metadata, and
    /// SQLite's leaves the most), so the rounds go through every order of the three
    /// (`orders`): the vault and the bare loop each follow SQLite equally often. (Rotating one
    /// order had the vault follow SQLite twice as often as the bare loop.) Each write's CPU time
    /// (this thread's) is kept too: what the vault adds to the disk's work, which no disk's
    /// speed moves.
    private func durableWrites(_ report: BenchReport, _ directory: URL) throws {
        let payload = Data(repeating: 0x5A, count: 64)
        let url = directory.appendingPathComponent("writes/vault.sfv")
        let vault = try Vault(at: url, key: .keyFile(VaultKey.defaultKeyFile(for: url)))
        try vault.upsert(service: "bench", account: "item", VaultItemContent(data: payload))
        let recordSize = Int(try vault.status().bytes) - 176
        let bare = try BareLog(directory.appendingPathComponent("bare.log"), recordSize: recordSize)
        let sqlite = try SQLitePeer(directory.appendingPathComponent("bench.sqlite"), dataSize: payload.count)
        defer { sqlite.stop() }

        var vaultTime = (wall: 0.0, cpu: 0.0)
        var bareTime = (wall: 0.0, cpu: 0.0)
        for i in 0..<writes {
            for turn in Self.orders[i % Self.orders.count] {
                switch turn {
                case 0:
                    let spent = try Self.measure {
                        try vault.upsert(
                            service: "bench", account: "item", VaultItemContent(data: payload, label: "\(i % 10)"))
                    }
                    vaultTime = (vaultTime.wall + spent.wall, vaultTime.cpu + spent.cpu)
                case 1:
                    let spent = try Self.measure { try bare.append() }
                    bareTime = (bareTime.wall + spent.wall, bareTime.cpu + spent.cpu)
                default:
                    try sqlite.upsert()
                }
            }
        }
        let sqliteTime = try sqlite.finish()

        let vaultRate = Double(writes) / vaultTime.wall
        let bareRate = Double(writes) / bareTime.wall
        let sqliteRate = Double(writes) / sqliteTime
        report.line(
            "durable upserts of one item", String(format: "%.0f /s", vaultRate),
            "\(writes) writes, \(BenchReport.duration(vaultTime.wall / Double(writes))) each, record \(recordSize) B, compaction included"
        )
        report.line(
            "bare pwrite + fdatasync, same size", String(format: "%.0f /s", bareRate),
            "the disk's limit: \(BenchReport.duration(bareTime.wall / Double(writes))) each")
        report.line(
            "SQLite WAL synchronous=FULL upsert", String(format: "%.0f /s", sqliteRate),
            "python3 sqlite3 \(sqliteVersion()), one transaction per upsert, timed inside python")
        report.line(
            "vault / bare fdatasync", BenchReport.ratio(vaultRate / bareRate),
            "1× would be the physical limit; goal ≥ 0.90× (the three take turns, in every order)")
        report.line(
            "CPU a write: vault / bare",
            "\(BenchReport.duration(vaultTime.cpu / Double(writes))) / \(BenchReport.duration(bareTime.cpu / Double(writes)))",
            "this thread's CPU time: what the vault adds besides waiting for the disk")
        report.line(
            "vault / SQLite", BenchReport.ratio(vaultRate / sqliteRate), "above 1× means more durable writes per second"
        )
        let child = directory.appendingPathComponent("counted")
        if let perWrite = try Callgrind.perOperation(
            BenchChild.executable, count: Self.counted,
            { n in
                [BenchChild.flag, "vault", "\(n)", child.path + "-\(n)"]
            })
        {
            report.line(
                "instructions a write", Callgrind.format(perWrite),
                "callgrind: (\(2 * Self.counted) upserts − \(Self.counted)) ÷ \(Self.counted), each run in a new vault, one item; "
                    + "the system calls' kernel side not counted")
        } else {
            report.line("instructions a write", "-", Callgrind.missing)
        }
    }

    /// Every order of the vault (0), the bare loop (1) and SQLite (2). Cycled, the vault and the
    /// bare loop alike follow SQLite in half their writes, each other in a third, themselves in a
    /// sixth.
    static let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]

    /// Upserts a callgrind run counts (and twice as many in the other).
    static let counted = 200

    /// The bench's child: `count` durable upserts of one item in the vault `directory/vault.sfv`
    /// (made with its key file when missing), as `durableWrites` makes them.
    static func upserts(_ count: Int, in directory: URL) throws {
        let url = directory.appendingPathComponent("vault.sfv")
        let vault = try Vault(at: url, key: .keyFile(VaultKey.defaultKeyFile(for: url)))
        let payload = Data(repeating: 0x5A, count: 64)
        for i in 0..<count {
            try vault.upsert(service: "bench", account: "item", VaultItemContent(data: payload, label: "\(i % 10)"))
        }
    }

    /// The wall and thread CPU seconds `body` takes.
    private static func measure(_ body: () throws -> Void) throws -> (wall: Double, cpu: Double) {
        let cpuStart = threadCPU()
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (wall, threadCPU() - cpuStart)
    }

    /// This thread's CPU seconds (user and system).
    private static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The physical limit: append a record-sized buffer and `fdatasync`.
    private final class BareLog {
        let fs = POSIXFileSystem()
        let file: OpenFile
        let record: [UInt8]

        init(_ url: URL, recordSize: Int) throws {
            file = try fs.open(url.path, [.write, .create, .truncate])
            record = [UInt8](repeating: 0xA5, count: recordSize)
        }

        deinit { fs.close(file) }

        func append() throws {
            try fs.write(file, record)
            try fs.synchronize(file, .data)
        }
    }

    /// SQLite in WAL mode with synchronous=FULL in a python3 child: one single-row upsert (its
    /// own transaction) per request line; python times each upsert itself, so the pipe's
    /// round trip is not counted.
    private final class SQLitePeer {
        private let child: SpawnedChild
        private var buffer = Data()

        static let script = """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute('PRAGMA journal_mode=WAL'); db.execute('PRAGMA synchronous=FULL')
            db.execute('CREATE TABLE items(service TEXT, account TEXT, data BLOB, label TEXT, modified INTEGER, PRIMARY KEY(service, account))')
            data = b'Z' * int(sys.argv[2])
            total = 0.0
            i = 0
            for line in sys.stdin:
                if line.strip() != 'w':
                    break
                start = time.perf_counter()
                db.execute('INSERT INTO items VALUES(?,?,?,?,?) ON CONFLICT(service, account) DO UPDATE SET data=excluded.data, label=excluded.label, modified=excluded.modified', ('bench', 'item', data, str(i % 10), i))
                total += time.perf_counter() - start
                i += 1
                sys.stdout.write('ok\\n'); sys.stdout.flush()
            sys.stdout.write('%r\\n' % total); sys.stdout.flush()
            """

        init(_ url: URL, dataSize: Int) throws {
            child = try SpawnedChild.onPath(
                "python3", ["-c", Self.script, url.path, "\(dataSize)"], input: .pipe, output: .pipe)
        }

        func upsert() throws {
            try child.input?.write(contentsOf: Data("w\n".utf8))
            guard try readLine() == "ok" else { throw Failure(description: "python3 sqlite3 peer failed") }
        }

        /// Ends the peer and returns the total seconds it spent in upserts.
        func finish() throws -> Double {
            try child.input?.write(contentsOf: Data("q\n".utf8))
            guard let line = try readLine(), let seconds = Double(line) else {
                throw Failure(description: "python3 sqlite3 peer gave no total")
            }
            child.wait()
            return seconds
        }

        func stop() {
            child.terminate()
            child.wait()
        }

        private func readLine() throws -> String? {
            while true {
                if let newline = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    return line
                }
                let chunk = (try? child.output.map { try PipeReader.read(descriptor: $0.fileDescriptor) }) ?? []
                if chunk.isEmpty { return nil }
                buffer.append(contentsOf: chunk)
            }
        }
    }

    private func sqliteVersion() -> String {
        (try? python(["-c", "import sqlite3; print(sqlite3.sqlite_version)"]))?.trimmingCharacters(
            in: .whitespacesAndNewlines) ?? "?"
    }

    private func python(_ arguments: [String]) throws -> String {
        String(decoding: try ChildProcess.output("python3", arguments), as: UTF8.self)
    }

    // MARK: - Scaling with the number of items

    private func scaling(_ report: BenchReport, _ directory: URL) throws {
        var vaults: [(size: Int, url: URL, key: VaultKey, vault: Vault)] = []
        for size in sizes {
            let url = directory.appendingPathComponent("scale-\(size)/vault.sfv")
            let key = VaultKey.keyFile(VaultKey.defaultKeyFile(for: url))
            let vault = try Vault(at: url, key: key)
            var account = 0
            while account < size {
                let chunk = min(10_000, size - account)
                var entries: [String: VaultItemContent] = [:]
                for i in account..<(account + chunk) {
                    entries[String(format: "product-%06d", i)] = VaultItemContent(
                        data: Data(repeating: UInt8(i & 0xFF), count: 64), label: "item \(i)")
                }
                try vault.upsertAll(service: "bench", entries)
                account += chunk
            }
            vaults.append((size, url, key, vault))
        }
        // Single durable upserts of random existing items, taking turns between the sizes.
        let clock = ContinuousClock()
        var times = Array(repeating: [Double](), count: vaults.count)
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            for (index, entry) in vaults.enumerated() {
                let account = String(format: "product-%06d", Int.random(in: 0..<entry.size, using: &rng))
                times[index].append(
                    try clock.measure {
                        try entry.vault.upsert(
                            service: "bench", account: account, VaultItemContent(data: Data(repeating: 1, count: 64)))
                    }.seconds)
            }
        }
        var medians: [Double] = []
        for (index, entry) in vaults.enumerated() {
            let single = Timing(runs: times[index].sorted())
            medians.append(single.median)
            let bytes = try entry.vault.status().bytes
            let open = try Timing.measure(runs: 3) {
                let reopened = try Vault(at: entry.url, key: entry.key)
                guard try reopened.status().items == entry.size else { throw Failure(description: "reopen lost items") }
            }
            report.line("\(entry.size) items: one durable upsert", BenchReport.duration(single.median), single.summary)
            report.line(
                "\(entry.size) items: open (read + verify all)", BenchReport.duration(open.median),
                "\(BenchReport.bytes(Int(bytes))), \(BenchReport.duration(open.median / Double(entry.size))) per item")
            if index == vaults.count - 1 {
                let compact = try Timing.measure(runs: 1) { try entry.vault.compact() }
                report.line(
                    "\(entry.size) items: one compaction", BenchReport.duration(compact.median),
                    "write-temp + fsync + rename + fsync-dir; runs once per ≥\(entry.size) writes")
            }
        }
        if let first = medians.first, let last = medians.last, let small = sizes.first, let large = sizes.last {
            report.line(
                "upsert cost at \(large) / at \(small) items", BenchReport.ratio(last / first),
                "1× means independent of the item count")
        }
    }

    // MARK: - Bulk AEAD

    private func aeadThroughput(_ report: BenchReport) throws {
        for algorithm in AEAD.Algorithm.allCases {
            let key = try SecureBytes.random(count: 32)
            let nonce = try SecureRandom.bytes(count: 12)
            let buffer = try SecureRandom.bytes(count: bufferSize)
            let aad = Array("bench".utf8)
            // The reusable key the vault itself uses: key schedule once, a new nonce per message.
            let aeadKey = try AEADKey(algorithm, key: key)
            let sealed = try AEAD.seal(algorithm, key: key, nonce: nonce, plaintext: buffer, associatedData: aad)
            let iterations = 20_000
            let peer = opensslSpeed(algorithm)
            let seal = try buffer.withUnsafeBytes { plaintext in
                try aad.withUnsafeBytes { ad in
                    try Timing.measure(runs: 3) {
                        for _ in 0..<iterations {
                            _ = try aeadKey.seal(nonce: nonce, plaintext: plaintext, associatedData: ad)
                        }
                    }
                }
            }
            let open = try sealed.withUnsafeBytes { sealedBytes in
                try aad.withUnsafeBytes { ad in
                    try Timing.measure(runs: 3) {
                        for _ in 0..<iterations {
                            guard try aeadKey.open(nonce: nonce, sealed: sealedBytes, associatedData: ad) != nil else {
                                throw Failure(description: "open failed")
                            }
                        }
                    }
                }
            }
            let sealRate = Double(iterations * bufferSize) / seal.minimum
            let openRate = Double(iterations * bufferSize) / open.minimum
            let note =
                peer.map { "openssl speed -evp \(algorithm.openSSLName) -bytes \(bufferSize): \(megabytes($0))" }
                ?? "openssl speed unavailable"
            report.line("\(algorithm.openSSLName) seal, \(bufferSize / 1024) KiB buffers", megabytes(sealRate), note)
            report.line(
                "\(algorithm.openSSLName) open, \(bufferSize / 1024) KiB buffers", megabytes(openRate),
                "verify tag, then release")
            if let peer {
                report.line(
                    "  seal / openssl speed", BenchReport.ratio(sealRate / peer),
                    "AEADKey (key schedule kept, new nonce and output array per message) vs OpenSSL's own loop")
                report.line(
                    "  open / openssl speed (encrypt)", BenchReport.ratio(openRate / peer),
                    "openssl speed -evp measures encryption")
            }
        }
    }

    private func megabytes(_ rate: Double) -> String { String(format: "%.0f MB/s", rate / 1e6) }

    /// OpenSSL's own figure for `algorithm` on buffers of `bufferSize`, in bytes per second.
    private func opensslSpeed(_ algorithm: AEAD.Algorithm) -> Double? {
        let arguments = ["speed", "-evp", algorithm.openSSLName, "-bytes", "\(bufferSize)", "-seconds", "1"]
        guard let child = try? SpawnedChild.onPath("openssl", arguments, output: .pipe) else { return nil }
        let text = String(decoding: SpawnedChild.readToEnd(child.output), as: UTF8.self)
        child.wait()
        // Last line: "AES-256-GCM    4160338.71k" (thousands of bytes per second).
        guard let last = text.split(separator: "\n").last(where: { $0.hasSuffix("k") }),
            let figure = last.split(separator: " ").last, let value = Double(figure.dropLast())
        else { return nil }
        return value * 1000
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
