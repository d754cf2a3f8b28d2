import Catalog
import Foundation

/// What a CLI command costs as the history grows: the same command, run as a whole process
/// (start-up included), on data directories seeded with 100, 10,000 and 100,000 transactions
/// in this run (and `buy` at 1,000,000 beside 100), printed as the ratio of the largest to the
/// smallest. The goal is at most 1.2× for every command but `history`, whose output grows
/// with the history.
struct HistoryBench: BenchSection {
    let name = "history"
    let summary =
        "CLI commands as whole processes at 100, 10,000 and 100,000 transactions, buy at 1,000,000 too (goal: ≤ 1.2×)"
    /// Histories to seed; `STOREFRONT_BENCH_HISTORY=100,10000` picks others.
    var sizes: [Int] =
        ProcessInfo.processInfo.environment["STOREFRONT_BENCH_HISTORY"]
        .map { $0.split(separator: ",").compactMap { Int($0) } } ?? [100, 10_000, 100_000]
    var runs = 5
    /// Commands to time; `STOREFRONT_BENCH_COMMANDS=history,buy` picks some (by name).
    var only: Set<String>? = ProcessInfo.processInfo.environment["STOREFRONT_BENCH_COMMANDS"]
        .map { Set($0.split(separator: ",").map(String.init)) }
    /// The history `buy` is timed at beside the smallest too (the purchase itself must not
    /// grow with the history); `STOREFRONT_BENCH_LARGE_HISTORY=0` leaves it out.
    var largeHistory =
        ProcessInfo.processInfo.environment["STOREFRONT_BENCH_LARGE_HISTORY"].flatMap { Int($0) } ?? 1_000_000
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
        guard let binary = UIBench.storefrontBinary else { return report.note(UIBench.noStorefront) }
        let catalogURL = URL(fileURLWithPath: "Catalogs/Demo.storekit").standardizedFileURL
        let catalog = try StoreKitConfiguration.load(contentsOf: catalogURL)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("historybench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer {
            if keeps {
                report.note("data directories kept in \(root.path)")
            } else {
                try? FileManager.default.removeItem(at: root)
            }
        }

        let global = ["--catalog", catalogURL.path]
        let scaling = try ScalingRun.seeding(
            report, binary: binary, global: global, sizes: sizes, runs: runs, root: root,
            what: "transactions", how: "journal (fsync off) and vault ledger (one write), through the libraries"
        ) { count, directory in try await HistorySeed.seed(count: count, catalog: catalog, in: directory) }
        let directories = scaling.directories
        let labels = sizes.map { $0.formatted() }.joined(separator: " / ")
        for command in Self.commands where only?.contains(command.name) ?? true {
            let grows = command.name == "history" ? "its output grows with the history" : nil
            let cpu = try scaling.time(report, command.name, command.arguments, grows: grows)
            if command.name == "buy" {
                let counts = try instructions(
                    report, command, binary: binary, global: global, sizes: sizes, directories: directories)
                try againstFloor(
                    report, buyCPU: cpu.first, buyInstructions: counts.first, size: sizes.first, binary: binary)
            }
            if command.name == "history" {
                try historyLimit(
                    report, binary: binary, arguments: command.arguments + global, directories: directories, cpu: cpu,
                    root: root)
            }
        }
        try firstFrame(report, binary: binary, global: global, directories: directories, root: root, labels: labels)
        if largeHistory > 0, only?.contains("buy") ?? true, let first = sizes.first, let directory = directories.first {
            let large = try ScalingRun.seeding(
                report, binary: binary, global: global, sizes: [largeHistory], runs: runs, root: root,
                what: "transactions", how: "the same, unsigned (buy reads none of them), for buy alone"
            ) { count, directory in
                try await HistorySeed.seed(count: count, catalog: catalog, in: directory, signing: false)
            }
            let buy = ScalingRun(
                binary: binary, global: global, sizes: [first, largeHistory],
                directories: [directory] + large.directories, runs: runs)
            try buy.time(report, "buy", Self.commands[0].arguments)
            _ = try instructions(
                report, Self.commands[0], binary: binary, global: global, sizes: buy.sizes,
                directories: buy.directories)
        }
    }

    /// The instructions one run of `command` executes at each size, as a whole process
    /// (callgrind): its CPU cost in a figure that the machine's load does not move.
    /// - Returns: the counts, one a size; none without valgrind.
    private func instructions(
        _ report: BenchReport, _ command: (name: String, arguments: [String]), binary: String, global: [String],
        sizes: [Int], directories: [URL]
    ) throws -> [UInt64] {
        var counts: [UInt64] = []
        for directory in directories {
            guard
                let count = try Callgrind.instructions(
                    binary, command.arguments + global + ["--data-dir", directory.path])
            else {
                report.line("\(command.name): instructions", "-", Callgrind.missing)
                return []
            }
            counts.append(count)
        }
        let labels = sizes.map { $0.formatted() }.joined(separator: " / ")
        report.line(
            "\(command.name): instructions at \(labels)",
            counts.map { Callgrind.format(Double($0)) }.joined(separator: " / "),
            "callgrind, the whole process"
                + (counts.count > 1
                    ? "; \(sizes.last!.formatted()) / \(sizes.first!.formatted()) = "
                        + BenchReport.ratio(Double(counts.last!) / Double(counts.first!)) : ""))
        return counts
    }

    /// One `buy` beside the floor the issue of its cost names, measured in this run: the Swift
    /// floor (`launch-floor`: Foundation and one ncurses frame, linked as the storefront is), by
    /// CPU time and by callgrind's count, whole processes both; and beside `storefront --help`
    /// (the process's own start: the loader, the Swift runtime, the command line). The goal is at
    /// most 3× the floor.
    private func againstFloor(
        _ report: BenchReport, buyCPU: Double?, buyInstructions: UInt64?, size: Int?, binary: String
    ) throws {
        guard let size else { return }
        let at = "buy at \(size.formatted())"
        if let floor = UIBench.builtBinary("launch-floor") {
            // No terminal to read: the floor draws its frame, reads end of input and exits.
            var environment = ProcessInfo.processInfo.environment
            environment["TERM"] = "xterm-256color"
            let cpu = CommandTiming.median(
                try (0..<11).map { _ in try CommandTiming.run(floor, ["FLOOR"], environment: environment).cpu })
            if let buyCPU {
                report.line(
                    "buy / Swift floor: CPU", BenchReport.ratio(buyCPU / cpu),
                    "\(at) \(BenchReport.duration(buyCPU)) against launch-floor \(BenchReport.duration(cpu)) "
                        + "(median of 11); goal ≤ 3×")
            }
            let count = try Callgrind.instructions(floor, ["FLOOR"], environment: environment)
            if let buyInstructions, let count {
                report.line(
                    "buy / Swift floor: instructions", BenchReport.ratio(Double(buyInstructions) / Double(count)),
                    "callgrind, whole processes: \(at) \(Callgrind.format(Double(buyInstructions))) against "
                        + "launch-floor \(Callgrind.format(Double(count))); goal ≤ 3×")
            }
            try withOpenSSL(report, floorCPU: cpu, floorInstructions: count)
        } else {
            report.note("buy / Swift floor: no launch-floor beside the bench (build it with `--product launch-floor`)")
        }
        guard let buyInstructions, let help = try Callgrind.instructions(binary, ["--help"]) else { return }
        report.line(
            "buy / --help: instructions", BenchReport.ratio(Double(buyInstructions) / Double(help)),
            "callgrind, whole processes: \(at) \(Callgrind.format(Double(buyInstructions))) against "
                + "storefront --help \(Callgrind.format(Double(help))), the process's own start")
    }

    /// The Swift floor with what OpenSSL's first use adds to any process (`OpenSSLFloor`, a C
    /// program doing one vault write's and one JWS's cryptography): the least a `buy` can cost
    /// while every cipher and signature goes through OpenSSL, over the Swift floor alone.
    private func withOpenSSL(_ report: BenchReport, floorCPU: Double, floorInstructions: UInt64?) throws {
        try ScratchDirectory.with("openssl-floor") { directory in
            guard let openssl = OpenSSLFloor.build(in: directory) else {
                report.note("OpenSSL's first use: no `cc` building against libcrypto here")
                return
            }
            let what = "a C program: one AES-256-GCM seal, one SHA-256, one ES256 signature, OpenSSL "
            let cpu = try openssl.cpu()
            report.line(
                "(Swift floor + OpenSSL's first use) / Swift floor: CPU",
                BenchReport.ratio((floorCPU + cpu) / floorCPU),
                what + "set up as CryptoLibrary does, less its exit before OpenSSL: \(BenchReport.duration(cpu)) "
                    + "(medians of 11); the least a buy can cost")
            guard let floorInstructions, let instructions = try openssl.instructions() else { return }
            report.line(
                "(Swift floor + OpenSSL's first use) / Swift floor: instructions",
                BenchReport.ratio(Double(floorInstructions + instructions) / Double(floorInstructions)),
                "callgrind, the same program less its early exit: \(Callgrind.format(Double(instructions)))")
        }
    }

    /// `history` beside its physical limit (`HistoryLimit`) at each size, and its cost a row.
    private func historyLimit(
        _ report: BenchReport, binary: String, arguments: [String], directories: [URL], cpu: [Double], root: URL
    ) throws {
        var limits: [Double] = []
        var notes: [String] = []
        for (size, directory) in zip(sizes, directories) {
            let output = try Self.capture(binary, arguments + ["--data-dir", directory.path], in: root)
            let limit = try HistoryLimit(
                vault: directory.appendingPathComponent("vault.sfv"),
                copy: root.appendingPathComponent("limit-\(size).bin"),
                output: output)
            let passes = try (0..<runs).map { _ in try limit.measure().cpu }
            limits.append(CommandTiming.median(passes))
            notes.append(
                "\(BenchReport.bytes(limit.bytes)) / \(limit.records.formatted()) records / \(BenchReport.bytes(output.count)) out"
            )
            try? FileManager.default.removeItem(at: limit.copy)
        }
        let labels = sizes.map { $0.formatted() }.joined(separator: " / ")
        report.line(
            "history limit at \(labels)", limits.map(BenchReport.duration).joined(separator: " / "),
            "cpu: read + AEAD open of the vault, output to /dev/null (\(notes.joined(separator: "; "))), median of \(runs)"
        )
        guard let last = cpu.last, let limit = limits.last, let first = cpu.first, sizes.count > 1 else { return }
        report.line(
            "history / limit at \(sizes.last!.formatted())", BenchReport.ratio(last / limit),
            "cpu; goal ≤ 2×; with the start-up (history at \(sizes.first!.formatted()), \(BenchReport.duration(first))) added to the limit: "
                + BenchReport.ratio(last / (limit + first)))
        let rows = Double(sizes.last! - sizes.first!)
        report.line(
            "history a row, \(sizes.first!.formatted()) → \(sizes.last!.formatted())",
            String(format: "%.2f µs", (last - first) / rows * 1e6),
            String(format: "cpu; the limit's %.2f µs a row", (limit - limits.first!) / rows * 1e6))
    }

    /// What `binary arguments…` prints on standard output (through a file, as a terminal-less run).
    static func capture(_ binary: String, _ arguments: [String], in directory: URL) throws -> [UInt8] {
        let url = directory.appendingPathComponent("captured-\(UUID().uuidString).txt")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchFailure(description: "cannot create \(url.path)")
        }
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        let status = try SpawnedChild(binary, arguments, output: .file(handle)).wait()
        try handle.close()
        guard status == 0 else {
            throw BenchFailure(description: "\(([binary] + arguments).joined(separator: " ")) exited \(status)")
        }
        return try [UInt8](Data(contentsOf: url))
    }

    /// The storefront's first frame (products on screen) in a pty, per history.
    private func firstFrame(
        _ report: BenchReport, binary: String, global: [String], directories: [URL], root: URL, labels: String
    ) throws {
        let pty = try PtyLaunch(in: root)
        var frames = directories.map { _ in [Double]() }
        for _ in 0..<3 {
            for (index, directory) in directories.enumerated() {
                frames[index].append(
                    try pty.firstFrame("100 Coins", [binary] + global + ["--data-dir", directory.path]))
            }
        }
        let medians = frames.map(CommandTiming.median)
        report.line(
            "TUI first frame at \(labels)", medians.map(BenchReport.duration).joined(separator: " / "),
            "pty 100×30, median of 3")
        if let first = medians.first, let last = medians.last, medians.count > 1 {
            report.line(
                "TUI first frame: \(sizes.last!.formatted()) / \(sizes.first!.formatted())",
                BenchReport.ratio(last / first), "wall; goal ≤ 1.20×")
        }
    }
}
