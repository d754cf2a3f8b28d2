import Foundation

/// Eight processes buying at once on one data directory, as eight terminals would: each worker
/// runs `storefront buy` 100 times in a row. Prints each call's latency percentiles per tenth
/// of the run (calls in the order they ended), so latency that grows with the history shows,
/// and the throughput beside the disk's fsync rate and the machine's CPU.
struct ProcessesBench: BenchSection {
    let name = "processes"
    let summary =
        "8 processes × 100 `storefront buy` on one data directory: latency per tenth, throughput vs the disk's fsync rate"
    var workers = 8
    var purchasesEach = 100

    private final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var runs: [CommandTiming.Run] = []
        private var failures: [String] = []

        func add(_ run: CommandTiming.Run) { lock.withLock { runs.append(run) } }
        func fail(_ message: String) { lock.withLock { failures.append(message) } }
        var all: [CommandTiming.Run] { lock.withLock { runs } }
        var errors: [String] { lock.withLock { failures } }
    }

    func run(_ report: BenchReport) throws {
        guard let binary = UIBench.storefrontBinary else { return report.note(UIBench.noStorefront) }
        let catalog = URL(fileURLWithPath: "Catalogs/Demo.storekit").standardizedFileURL.path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "processesbench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let global = ["--catalog", catalog, "--data-dir", directory.path]
        _ = try CommandTiming.run(binary, ["store", "set", "latency", "0"] + global)

        let calls = Calls()
        let group = DispatchGroup()
        let cpuBefore = CommandTiming.childrenCPU()
        let machineBefore = MachineCPU.now()
        let start = CommandTiming.now()
        for _ in 0..<workers {
            group.enter()
            Thread.detachNewThread { [purchasesEach] in
                defer { group.leave() }
                for _ in 0..<purchasesEach {
                    do {
                        calls.add(try CommandTiming.run(binary, ["buy", "com.storefront.demo.coins.100"] + global))
                    } catch {
                        calls.fail("\(error)")
                    }
                }
            }
        }
        group.wait()
        let seconds = CommandTiming.now() - start
        let cpu = CommandTiming.childrenCPU() - cpuBefore
        let machine = MachineCPU.now().since(machineBefore)
        if let failure = calls.errors.first {
            throw CommandTiming.Failure(description: "\(calls.errors.count) purchases failed; the first: \(failure)")
        }
        let runs = calls.all.sorted { $0.ended < $1.ended }
        let tenth = max(1, runs.count / 10)
        for index in 0..<10 {
            let slice = runs[min(runs.count, index * tenth)..<min(runs.count, (index + 1) * tenth)].map(\.wall)
            guard !slice.isEmpty else { continue }
            report.line(
                "tenth \(index + 1): p50 / p99 latency",
                BenchReport.duration(CommandTiming.percentile(slice, 50)) + " / "
                    + BenchReport.duration(CommandTiming.percentile(slice, 99)),
                "\(slice.count) calls")
        }
        let first = runs.prefix(tenth).map(\.wall)
        let last = runs.suffix(tenth).map(\.wall)
        report.line(
            "p50 last tenth / first tenth",
            BenchReport.ratio(CommandTiming.percentile(last, 50) / CommandTiming.percentile(first, 50)),
            "1× = latency flat across the run")
        let rate = Double(runs.count) / seconds
        let fsync = StoreBench.measureFsync(rounds: 200)
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let cpuBound = cores / (cpu / Double(runs.count))
        report.line(
            "purchases/s, \(workers) processes", String(format: "%.1f/s", rate),
            "\(runs.count) purchases in \(BenchReport.duration(seconds))")
        report.line("disk: write + fsync rate", String(format: "%.0f/s", 1 / fsync), "same run, same directory's disk")
        report.line(
            "CPU bound: cores ÷ CPU per call", String(format: "%.1f/s", cpuBound),
            "\(BenchReport.duration(cpu / Double(runs.count))) CPU a call (whole process) on \(Int(cores)) cores")
        report.line(
            "purchases/s / CPU bound", BenchReport.ratio(rate / cpuBound),
            "what bounds the run: the lower of CPU and disk")
        // The CPU bound assumes both cores are the run's; on a shared machine they are not. What
        // the cores did meanwhile tells waiting on one another (idle cores) from running short of
        // CPU (none idle: other processes took the rest).
        let others = max(0, machine.busy - cpu)
        report.line(
            "the cores during the run", String(format: "%.0f%% busy", 100 * machine.busy / (cores * seconds)),
            String(
                format: "/proc/stat over %.1f s × %d cores: the purchases %.1f s, everything else %.1f s, idle %.1f s, "
                    + "idle waiting for the disk %.1f s", seconds, Int(cores), cpu, others, machine.idle,
                machine.ioWait))
        report.line(
            "purchases/s / CPU left to them", BenchReport.ratio(cpu / max(cpu + machine.idle + machine.ioWait, 1e-9)),
            "(their CPU + idle cores) ÷ CPU a call; 1× = they used every free cycle, below = they waited")
    }
}
