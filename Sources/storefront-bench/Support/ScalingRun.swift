import Foundation

/// One CLI command run as a whole process in data directories that differ only in how much
/// they hold (`sizes`, one directory each), rounds alternating between the directories so
/// load from elsewhere falls on all alike; printed as the medians and the ratio of the
/// largest size to the smallest.
struct ScalingRun {
    let binary: String
    /// The options every run takes (`--catalog …`); `--data-dir` is added per directory.
    let global: [String]
    let sizes: [Int]
    let directories: [URL]
    let runs: Int

    /// Seeds a data directory under `root` for each size through `seed` (timed, a line each:
    /// "seed SIZE WHAT", `how` beside it) and returns the run over them.
    static func seeding(
        _ report: BenchReport, binary: String, global: [String], sizes: [Int], runs: Int, root: URL,
        what: String, how: String, _ seed: @escaping @Sendable (_ count: Int, _ directory: URL) async throws -> Void
    ) throws -> ScalingRun {
        var directories: [URL] = []
        for size in sizes {
            let directory = root.appendingPathComponent("data-\(size)")
            let start = CommandTiming.now()
            try Blocking.await { try await seed(size, directory) }
            report.line("seed \(size) \(what)", BenchReport.duration(CommandTiming.now() - start), how)
            directories.append(directory)
        }
        return ScalingRun(binary: binary, global: global, sizes: sizes, directories: directories, runs: runs)
    }

    /// Times `arguments` and prints two lines; `grows` says why the command's cost may grow
    /// with the size (its output lists everything), nil holds it to the goal of ≤ 1.2×.
    /// - Returns: the median CPU seconds at each size.
    @discardableResult
    func time(_ report: BenchReport, _ name: String, _ arguments: [String], grows: String? = nil) throws -> [Double] {
        var walls = sizes.map { _ in [Double]() }
        var cpus = sizes.map { _ in [Double]() }
        for _ in 0..<runs {
            for (index, directory) in directories.enumerated() {
                let run = try CommandTiming.run(binary, arguments + global + ["--data-dir", directory.path])
                walls[index].append(run.wall)
                cpus[index].append(run.cpu)
            }
        }
        let wall = walls.map(CommandTiming.median)
        let cpu = cpus.map(CommandTiming.median)
        let labels = sizes.map { $0.formatted() }.joined(separator: " / ")
        report.line(
            "\(name): cpu at \(labels)", cpu.map(BenchReport.duration).joined(separator: " / "),
            "wall " + wall.map(BenchReport.duration).joined(separator: " / ") + ", median of \(runs)")
        if let first = cpu.first, let last = cpu.last, let smallest = sizes.first, let largest = sizes.last,
            sizes.count > 1
        {
            report.line(
                "\(name): \(largest.formatted()) / \(smallest.formatted())", BenchReport.ratio(last / first),
                "cpu; wall \(BenchReport.ratio(wall.last! / wall.first!))"
                    + (grows.map { " (\($0))" } ?? "; goal ≤ 1.20×"))
        }
        return cpu
    }
}
