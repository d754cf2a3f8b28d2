import Catalog
import Foundation

/// What a CLI command costs as the history grows: the same command, run as a whole process
/// (start-up included), on data directories seeded with 100, 10,000 and 100,000 transactions
/// in this run, printed as the ratio of the largest to the smallest. The goal is at most 1.2×
/// for every command but `history`, whose output grows with the history.
struct HistoryBench: BenchSection {
    let name = "history"
    let summary = "CLI commands as whole processes at 100, 10,000 and 100,000 transactions (goal: ≤ 1.2× at 100,000)"
    /// Histories to seed; `STOREFRONT_BENCH_HISTORY=100,10000` picks others.
    var sizes: [Int] = ProcessInfo.processInfo.environment["STOREFRONT_BENCH_HISTORY"]
        .map { $0.split(separator: ",").compactMap { Int($0) } } ?? [100, 10_000, 100_000]
    var runs = 5
    /// Commands to time; `STOREFRONT_BENCH_COMMANDS=history,buy` picks some (by name).
    var only: Set<String>? = ProcessInfo.processInfo.environment["STOREFRONT_BENCH_COMMANDS"]
        .map { Set($0.split(separator: ",").map(String.init)) }
    /// `STOREFRONT_BENCH_KEEP=1` leaves the seeded data directories behind (for profiling).
    var keeps = ProcessInfo.processInfo.environment["STOREFRONT_BENCH_KEEP"] == "1"

    static let commands: [(name: String, arguments: [String])] = [
        ("buy", ["buy", "com.storefront.demo.coins.100"]),
        ("products", ["products"]),
        ("entitlements", ["entitlements"]),
        ("store settings", ["store", "settings"]),
        ("history", ["history"]),
    ]

    func run(_ report: BenchReport) throws {
        guard let binary = UIBench.storefrontBinary.map({ URL(fileURLWithPath: $0).standardizedFileURL.path }) else {
            report.note("no built storefront beside the bench (run `swift build -c release --product storefront`)")
            return
        }
        let catalogURL = URL(fileURLWithPath: "Catalogs/Demo.storekit").standardizedFileURL
        let catalog = try StoreKitConfiguration.load(contentsOf: catalogURL)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("historybench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { if keeps { report.note("data directories kept in \(root.path)") } else { try? FileManager.default.removeItem(at: root) } }

        var directories: [URL] = []
        for size in sizes {
            let directory = root.appendingPathComponent("data-\(size)")
            let start = CommandTiming.now()
            try Blocking.await { try await HistorySeed.seed(count: size, catalog: catalog, in: directory) }
            report.line("seed \(size) transactions", BenchReport.duration(CommandTiming.now() - start),
                        "journal (fsync off) and vault ledger (one write), through the libraries")
            directories.append(directory)
        }
        let global = ["--catalog", catalogURL.path]
        let labels = sizes.map { $0.formatted() }.joined(separator: " / ")
        for command in Self.commands where only?.contains(command.name) ?? true {
            // Rounds alternate between the histories, so load from elsewhere falls on all alike.
            var walls = sizes.map { _ in [Double]() }, cpus = sizes.map { _ in [Double]() }
            for _ in 0..<runs {
                for (index, directory) in directories.enumerated() {
                    let run = try CommandTiming.run(binary, command.arguments + global + ["--data-dir", directory.path])
                    walls[index].append(run.wall)
                    cpus[index].append(run.cpu)
                }
            }
            let wall = walls.map(CommandTiming.median), cpu = cpus.map(CommandTiming.median)
            report.line("\(command.name): cpu at \(labels)", cpu.map(BenchReport.duration).joined(separator: " / "),
                        "wall " + wall.map(BenchReport.duration).joined(separator: " / ") + ", median of \(runs)")
            if let first = cpu.first, let last = cpu.last, sizes.count > 1 {
                report.line("\(command.name): \(sizes.last!.formatted()) / \(sizes.first!.formatted())",
                            BenchReport.ratio(last / first),
                            "cpu; wall \(BenchReport.ratio(wall.last! / wall.first!))"
                                + (command.name == "history" ? " (its output grows with the history)" : "; goal ≤ 1.20×"))
            }
        }
        try firstFrame(report, binary: binary, global: global, directories: directories, root: root, labels: labels)
    }

    /// The storefront's first frame (products on screen) in a pty, per history.
    private func firstFrame(
        _ report: BenchReport, binary: String, global: [String], directories: [URL], root: URL, labels: String
    ) throws {
        let pty = try PtyLaunch(in: root)
        var frames = directories.map { _ in [Double]() }
        for _ in 0..<3 {
            for (index, directory) in directories.enumerated() {
                frames[index].append(try pty.firstFrame("100 Coins", [binary] + global + ["--data-dir", directory.path]))
            }
        }
        let medians = frames.map(CommandTiming.median)
        report.line("TUI first frame at \(labels)", medians.map(BenchReport.duration).joined(separator: " / "),
                    "pty 100×30, median of 3")
        if let first = medians.first, let last = medians.last, medians.count > 1 {
            report.line("TUI first frame: \(sizes.last!.formatted()) / \(sizes.first!.formatted())",
                        BenchReport.ratio(last / first), "wall; goal ≤ 1.20×")
        }
    }
}
