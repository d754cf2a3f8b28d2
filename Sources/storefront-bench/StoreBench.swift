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
        "LocalAppStore purchases (add → charged event → finish), zero latency, history 100, 10,000 and 100,000"

    /// Purchases timed with `fsync` (disk-bound) and without (CPU-bound: the best of several
    /// rounds, since the machine is shared and a round can lose the CPU to other work).
    private static let measuredSynced = 200
    private static let measuredUnsynced = 1000
    private static let unsyncedRounds = 3
    /// The histories compared: each compaction adds to an index of the whole history, so
    /// this is where a cost that grows with it shows.
    private static let histories = [100, 10_000, 100_000]

    func run(_ report: BenchReport) throws {
        let rows = try Blocking.await { () async throws -> [(Int, Rate, Rate)] in
            var rows: [(Int, Rate, Rate)] = []
            for history in Self.histories {
                let synced = try await Self.purchaseRate(history: history, syncsWrites: true)
                rows.append((history, synced, Rate()))
            }
            // CPU-only rounds alternate between the two histories, so that both see the
            // same share of a machine that other work also uses.
            let directories = rows.map { _ in Self.temporaryDirectory() }
            defer { for directory in directories { try? FileManager.default.removeItem(at: directory) } }
            var stores: [LocalAppStore] = []
            for (index, row) in rows.enumerated() {
                stores.append(try await Self.seededStore(history: row.0, in: directories[index], syncsWrites: false))
            }
            for _ in 0..<Self.unsyncedRounds {
                for index in rows.indices {
                    let round = try await Self.measure(stores[index], count: Self.measuredUnsynced)
                    if round.rate > rows[index].2.rate { rows[index].2 = round }
                }
            }
            return rows
        }
        let peer = Self.measureFsync()
        report.line("raw disk: write + fsync of a 700-byte line", BenchReport.duration(peer), "(peer, same run)")
        for (history, synced, unsynced) in rows {
            // fsync time swings widely on a shared disk, so the limit is the store's own time
            // in fsync during these very purchases.
            let limit = 1 / synced.fsyncSecondsPerPurchase
            report.line(
                "history \(history): purchases/s, fsync on", String(format: "%.1f/s", synced.rate),
                String(
                    format: "%@ of the disk limit %.1f/s (%.2f fsyncs, %@ in fsync a purchase)",
                    BenchReport.ratio(synced.rate / limit), limit, synced.fsyncsPerPurchase,
                    BenchReport.duration(synced.fsyncSecondsPerPurchase)))
            report.line(
                "history \(history): purchases/s, fsync off", String(format: "%.1f/s", unsynced.rate),
                "the CPU cost alone, best of \(Self.unsyncedRounds) rounds")
        }
        if let short = rows.first {
            for long in rows.dropFirst() {
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

    /// A store in `directory` whose account already made `history` purchases.
    private static func seededStore(history: Int, in directory: URL, syncsWrites: Bool) async throws -> LocalAppStore {
        let catalog = StoreKitConfiguration(
            file: "bench.storekit",
            products: [
                StoreKitConfiguration.Product(
                    id: "bench.coins", referenceName: "coins", kind: .consumable, price: Decimal(string: "0.99") ?? 1)
            ])
        func configuration(sync: Bool) -> LocalAppStoreConfiguration {
            LocalAppStoreConfiguration(
                catalog: catalog, stateDirectory: directory, initialLatencyMilliseconds: 0, syncsWrites: sync)
        }
        do {
            // Imported in one journal write (`importHistory`); the compactions of the purchases
            // timed next move them to history.dat, as purchases made one by one would be.
            let seeder = try LocalAppStore(configuration: configuration(sync: false))
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            try await seeder.importHistory(
                (0..<history).map { n in
                    Transaction(
                        transactionID: "seed-\(n)", productID: "bench.coins", productType: .consumable,
                        payment: Payment(productID: "bench.coins"), state: .purchased,
                        purchaseDate: start.addingTimeInterval(Double(n)),
                        price: Decimal(string: "0.99"), currencyCode: "USD", storefront: "USA")
                })
        }
        let store = try LocalAppStore(configuration: configuration(sync: syncsWrites))
        guard try await store.history().count == history else {
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

    /// Purchases per second, with `fsync`, after `history` earlier purchases.
    private static func purchaseRate(history: Int, syncsWrites: Bool) async throws -> Rate {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await seededStore(history: history, in: directory, syncsWrites: syncsWrites)
        return try await measure(store, count: measuredSynced)
    }

    private static func buy(_ store: LocalAppStore, count: Int) async throws {
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
