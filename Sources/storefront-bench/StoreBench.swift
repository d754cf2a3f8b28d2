import Catalog
import Foundation
import LocalAppStore
import StoreCore
import Synchronization
import SystemIO

/// The local App Store's purchase rate, with a short and a long history, beside the disk's
/// own limit measured during the same purchases (the time the store spent in `fsync`).
struct StoreBench: BenchSection {
    let name = "store"
    let summary =
        "LocalAppStore purchases (add → charged event → finish), zero latency, history 100, 10,000, 100,000 and 1,000,000"

    /// Purchases timed with `fsync` (disk-bound) and without (CPU-bound), in rounds that take
    /// turns between the histories (the machine is shared, so a round can lose the CPU or the
    /// disk to other work); each history's best round counts.
    private static let measuredSynced = 100
    private static let syncedRounds = 3
    private static let measuredUnsynced = 1000
    private static let unsyncedRounds = 3
    /// Purchases a callgrind run counts (and twice as many in the other).
    private static let counted = 100
    /// The histories compared: each compaction adds a run to an index of the whole history,
    /// so this is where a cost that grows with it shows. `STOREFRONT_BENCH_STORE_HISTORY`
    /// picks others (`100,100000`).
    private static let histories =
        ProcessInfo.processInfo.environment["STOREFRONT_BENCH_STORE_HISTORY"]
        .map { $0.split(separator: ",").compactMap { Int($0) } } ?? [100, 10_000, 100_000, 1_000_000]

    func run(_ report: BenchReport) throws {
        let directories = Self.histories.map { _ in Self.temporaryDirectory() }
        defer { for directory in directories { try? FileManager.default.removeItem(at: directory) } }
        for (history, directory) in zip(Self.histories, directories) {
            let start = DispatchTime.now()
            try Blocking.await { try await Self.seed(history: history, in: directory) }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            report.line(
                "seed \(history.formatted()) transactions", BenchReport.duration(seconds),
                "importHistory: straight to history.dat, one compaction")
        }
        let rows = try Blocking.await { () async throws -> [(Int, Rate, Rate)] in
            var rows = Self.histories.map { ($0, Rate(), Rate()) }
            for syncs in [true, false] {
                var stores: [LocalAppStore] = []
                for (history, directory) in zip(Self.histories, directories) {
                    stores.append(try await Self.open(history: history, in: directory, syncsWrites: syncs))
                }
                for _ in 0..<(syncs ? Self.syncedRounds : Self.unsyncedRounds) {
                    for index in rows.indices {
                        let count = syncs ? Self.measuredSynced : Self.measuredUnsynced
                        let round = try await Self.measure(stores[index], count: count)
                        if syncs, round.rate > rows[index].1.rate { rows[index].1 = round }
                        if !syncs, round.rate > rows[index].2.rate { rows[index].2 = round }
                    }
                }
            }
            return rows
        }
        // Instructions a purchase costs (fsync off), which the machine's load does not move.
        var instructions: [Double?] = []
        for directory in directories {
            instructions.append(
                try Callgrind.perOperation(BenchChild.executable, count: Self.counted) {
                    [BenchChild.flag, "store", "\($0)", directory.path]
                })
        }
        let peer = Self.measureFsync()
        report.line("raw disk: write + fsync of a 700-byte line", BenchReport.duration(peer), "(peer, same run)")
        for ((history, synced, unsynced), counted) in zip(rows, instructions) {
            // fsync time swings widely on a shared disk, so the limit is the store's own time
            // in fsync during these very purchases.
            let limit = 1 / synced.fsyncSecondsPerPurchase
            report.line(
                "history \(history): purchases/s, fsync on", String(format: "%.1f/s", synced.rate),
                String(
                    format: "%@ of the disk limit %.1f/s (%.2f fsyncs, %@ in fsync a purchase), best of %d rounds",
                    BenchReport.ratio(synced.rate / limit), limit, synced.fsyncsPerPurchase,
                    BenchReport.duration(synced.fsyncSecondsPerPurchase), Self.syncedRounds))
            report.line(
                "history \(history): purchases/s, fsync off", String(format: "%.1f/s", unsynced.rate),
                "the CPU cost alone, best of \(Self.unsyncedRounds) rounds")
            report.line(
                "history \(history): instructions a purchase", counted.map(Callgrind.format) ?? "-",
                counted == nil
                    ? Callgrind.missing
                    : "callgrind, fsync off: (\(2 * Self.counted) purchases − \(Self.counted)) ÷ \(Self.counted)")
        }
        if let short = rows.first, let base = instructions.first ?? nil {
            for (long, counted) in zip(rows, instructions).dropFirst() {
                guard let counted else { continue }
                report.line(
                    "history \(long.0) vs \(short.0), instructions", BenchReport.ratio(counted / base),
                    "a purchase's instructions; 1.00× = the CPU cost does not grow with history")
            }
        }
        if let short = rows.first {
            for long in rows.dropFirst() {
                // The disk's speed swings between rounds; what the store does besides waiting
                // for it does not.
                let outside = { (rate: Rate) in 1 / rate.rate - rate.fsyncSecondsPerPurchase }
                report.line(
                    "history \(long.0) vs \(short.0), fsync on", BenchReport.ratio(short.1.rate / long.1.rate),
                    "slower by; goal ≤ 1.20×. Outside fsync a purchase: "
                        + "\(BenchReport.duration(outside(short.1))) → \(BenchReport.duration(outside(long.1))) "
                        + "(\(BenchReport.ratio(outside(long.1) / outside(short.1))))")
                report.line(
                    "history \(long.0) vs \(short.0), fsync off", BenchReport.ratio(long.2.rate / short.2.rate),
                    "1.00× = the per-purchase cost does not grow with history")
            }
        }
    }

    /// Seconds one append-and-fsync of a journal-sized line takes on the temporary
    /// directory's disk, with the same system calls as the journal (`write` on an `O_APPEND`
    /// descriptor, then `fsync`).
    static func measureFsync(rounds: Int = 300) -> Double {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storebench-fsync-\(UUID().uuidString)"
        ).path
        let fs = POSIXFileSystem()
        guard let file = try? fs.open(path, [.readWrite, .create, .append]) else { return .nan }
        defer {
            fs.close(file)
            try? fs.removeFile(path)
        }
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 700) + [10]
        let start = DispatchTime.now()
        for _ in 0..<rounds {
            try? fs.write(file, line)
            try? fs.synchronize(file, .all)
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 / Double(rounds)
    }

    struct Rate: Sendable {
        var rate = 0.0
        var fsyncsPerPurchase = 0.0
        var fsyncSecondsPerPurchase = 0.0
    }

    private static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("storebench-\(UUID().uuidString)")
    }

    private static let catalog = StoreKitConfiguration(
        file: "bench.storekit",
        products: [
            StoreKitConfiguration.Product(
                id: "bench.coins", referenceName: "coins", kind: .consumable, price: Decimal(string: "0.99") ?? 1)
        ])

    private static func configuration(_ directory: URL, syncsWrites: Bool) -> LocalAppStoreConfiguration {
        LocalAppStoreConfiguration(
            catalog: catalog, stateDirectory: directory, initialLatencyMilliseconds: 0
        ).syncing(syncsWrites)
    }

    /// Makes `directory` a store whose account already made `history` purchases: imported
    /// straight into the compacted history (`importHistory`), as the compactions of purchases
    /// made one by one would have moved them.
    private static func seed(history: Int, in directory: URL) async throws {
        let seeder = try LocalAppStore(configuration: configuration(directory, syncsWrites: false))
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try await seeder.transactionManager.importHistory(
            (0..<history).map { n in
                Transaction(
                    transactionID: "seed-\(n)", productID: "bench.coins", productType: .consumable,
                    payment: Payment(productID: "bench.coins"), state: .purchased,
                    purchaseDate: start.addingTimeInterval(Double(n)),
                    price: Decimal(string: "0.99"), currencyCode: "USD", storefront: "USA")
            }, signing: false)
    }

    /// The store seeded in `directory`, without fsync (`BenchChild`).
    static func open(in directory: URL) throws -> LocalAppStore {
        try LocalAppStore(configuration: configuration(directory, syncsWrites: false))
    }

    /// The store seeded in `directory`, checked to hold at least `history` transactions.
    private static func open(history: Int, in directory: URL, syncsWrites: Bool) async throws -> LocalAppStore {
        let store = try LocalAppStore(configuration: configuration(directory, syncsWrites: syncsWrites))
        guard try await store.server.snapshot().positionCount >= history else {
            throw StoreError.systemError("the history was not seeded")
        }
        return store
    }

    /// Times `count` purchases.
    private static func measure(_ store: LocalAppStore, count: Int) async throws -> Rate {
        let fsyncsBefore = store.metrics.fsyncs
        let fsyncTimeBefore = store.metrics.fsyncSeconds
        let start = DispatchTime.now()
        try await buy(store, count: count)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return Rate(
            rate: Double(count) / seconds,
            fsyncsPerPurchase: Double(store.metrics.fsyncs - fsyncsBefore) / Double(count),
            fsyncSecondsPerPurchase: (store.metrics.fsyncSeconds - fsyncTimeBefore) / Double(count))
    }

    static func buy(_ store: LocalAppStore, count: Int) async throws {
        var events = await store.events().makeAsyncIterator()
        for _ in 0..<count {
            let queued = try await store.add(Payment(productID: "bench.coins"))
            var done = false
            while !done, let event = await events.next() {
                if case .transactionsUpdated(let transactions) = event,
                    transactions.contains(where: { $0.transactionID == queued.transactionID && $0.state == .purchased })
                {
                    done = true
                }
            }
            try await store.finish(transactionID: queued.transactionID)
        }
    }
}
