import Catalog
import Foundation
import LocalAppStore
import StoreCore
import SystemIO

/// Purchases per second through the whole engine (verify, record in the ledger, deliver,
/// finish) and the local App Store, with zero latency and every write durable, after 100 and
/// after 10,000 purchases in one history; and the fsyncs one purchase costs, beside the disk's
/// limit measured in the same run (a bare `write` + `fsync` loop).
struct EngineBench: BenchSection {
    let name = "engine"
    let summary =
        "purchases/s through engine + local store at 100 and 10,000 in history (limit: the disk's fdatasync rate)"
    var measured = 100
    /// Purchases a callgrind run counts (and twice as many in the other): one period of the
    /// journal's compaction (3 lines a purchase, a compaction past 256 lines), so the purchases
    /// the difference counts hold one compaction whatever the history's phase.
    static let counted = 86

    func run(_ report: BenchReport) throws {
        var rows: [(history: Int, seconds: Double, fsyncs: Double, cpuSeconds: Double)] = []
        var instructions: [Double?] = []
        for history in [100, 10_000] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "enginebench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let row = try Blocking.await {
                try await Self.measure(history: history, count: measured, in: directory)
            }
            rows.append((history, row.seconds, row.fsyncs, row.cpuSeconds))
            // Each callgrind run on its own copy of the seeded store: the second would otherwise
            // open the first's purchases too (a file-ledger line decoded each) and start where
            // the first's compactions left the journal.
            let copies = [Self.counted, 2 * Self.counted].map { directory.path + "-\($0)" }
            defer { for copy in copies { try? FileManager.default.removeItem(atPath: copy) } }
            for copy in copies { try FileManager.default.copyItem(atPath: directory.path, toPath: copy) }
            // Hashing seeded alike in both runs: opening 10,000 ledger lines fills dictionaries
            // whose probing otherwise differs by millions of instructions from run to run.
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
            instructions.append(
                try Callgrind.perOperation(BenchChild.executable, count: Self.counted, environment: environment) {
                    [BenchChild.flag, "engine", "\($0)", directory.path + "-\($0)"]
                })
        }
        let limit = 1 / StoreBench.measureFsync()
        for row in rows {
            report.line(
                "purchases/s after \(row.history) in history", String(format: "%.0f/s", Double(measured) / row.seconds),
                BenchReport.duration(row.seconds / Double(measured))
                    + " each, \(String(format: "%.1f", row.fsyncs)) fsyncs each")
        }
        report.line(
            "cost at 10,000 / cost at 100", BenchReport.ratio(rows[1].seconds / rows[0].seconds),
            "with fsync; the disk's speed swings between runs")
        report.line(
            "CPU cost at 10,000 / at 100 (fsync off)", BenchReport.ratio(rows[1].cpuSeconds / rows[0].cpuSeconds),
            BenchReport.duration(rows[0].cpuSeconds / Double(measured)) + " → "
                + BenchReport.duration(rows[1].cpuSeconds / Double(measured))
                + " of this process's CPU a purchase; about 1× means no growth with the history")
        report.line(
            "bare write+fsync (the disk's limit)", String(format: "%.0f/s", limit),
            "300 journal-sized appends, same temporary directory")
        if let atHundred = instructions[0], let atTenThousand = instructions[1] {
            report.line(
                "engine purchase at 100 / 10,000: instructions",
                Callgrind.format(atHundred) + " / " + Callgrind.format(atTenThousand),
                "callgrind, fsync off: (\(2 * Self.counted) purchases − \(Self.counted)) ÷ \(Self.counted), start-up "
                    + "cancelled out; 10,000 / 100 = " + BenchReport.ratio(atTenThousand / atHundred))
        } else {
            report.line("engine purchase at 100 / 10,000: instructions", "-", Callgrind.missing)
        }
        let bound = limit / max(rows[1].fsyncs, 1)
        report.line(
            "purchases/s / (limit ÷ fsyncs per purchase)",
            BenchReport.ratio(Double(measured) / rows[1].seconds / bound),
            "1× would mean the disk alone bounds a purchase")
    }

    static let catalog = StoreKitConfiguration(
        file: "bench.storekit",
        products: [
            StoreKitConfiguration.Product(
                id: "bench.coins", referenceName: "coins", kind: .consumable, price: Decimal(string: "0.99") ?? 1)
        ])

    /// The local store in `directory/store`, its file ledger `directory/ledger.jsonl` and the
    /// engine over both.
    static func open(in directory: URL, sync: Bool) throws -> (LocalAppStore, FileLedger, Store) {
        let backend = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: catalog, stateDirectory: directory.appendingPathComponent("store"),
                initialLatencyMilliseconds: 0
            ).syncing(sync))
        let ledger = try FileLedger(path: directory.appendingPathComponent("ledger.jsonl").path, syncsWrites: sync)
        let store = Store(
            backend: backend, ledger: ledger,
            configuration: StoreConfiguration(notificationCenter: NotificationCenter()))
        return (backend, ledger, store)
    }

    /// Seeds `history` purchases without fsync, then times `count` purchases with every write durable.
    static func measure(
        history: Int, count: Int, in directory: URL
    ) async throws -> (seconds: Double, fsyncs: Double, cpuSeconds: Double) {
        func open(sync: Bool) throws -> (LocalAppStore, FileLedger, Store) {
            try Self.open(in: directory, sync: sync)
        }
        var cpuSeconds = 0.0
        do {
            let (_, _, seeder) = try open(sync: false)
            await seeder.start()
            try await buy(seeder, count: history)
            // The same purchases without fsync: the engine's and store's own cost, in this
            // process's CPU time (every thread), which other processes on the machine do not move.
            let start = CPUTime.ofSelf()
            try await buy(seeder, count: count)
            cpuSeconds = CPUTime.ofSelf() - start
            await seeder.stop()
        }
        // The seeding left dirty pages; flush them so the timed fsyncs pay only for themselves.
        POSIXFileSystem().synchronizeAll()
        let (backend, ledger, store) = try open(sync: true)
        await store.start()
        guard try await store.count(of: "bench.coins") == history + count else {
            throw Blocking.Failure(description: "the history was not seeded")
        }
        let fsyncsBefore = backend.metrics.fsyncs + ledger.fsyncCount
        let start = DispatchTime.now().uptimeNanoseconds
        try await buy(store, count: count)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let fsyncs = Double(backend.metrics.fsyncs + ledger.fsyncCount - fsyncsBefore) / Double(count)
        await store.stop()
        return (seconds, fsyncs, cpuSeconds)
    }

    static func buy(_ store: Store, count: Int) async throws {
        for _ in 0..<count {
            let result = await store.purchase("bench.coins")
            guard case .purchased = result else {
                throw Blocking.Failure(description: "a purchase ended \(result.state)")
            }
        }
    }
}
