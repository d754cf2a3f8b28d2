/// Wall-clock timing with the monotonic clock: minimum and median over several runs.
struct Timing {
    /// Every run's duration in seconds, sorted.
    let runs: [Double]

    /// The fastest run.
    var minimum: Double { runs.first ?? 0 }
    /// The middle run (the mean of the two middle ones for an even count).
    var median: Double {
        guard !runs.isEmpty else { return 0 }
        let middle = runs.count / 2
        return runs.count % 2 == 1 ? runs[middle] : (runs[middle - 1] + runs[middle]) / 2
    }

    /// Runs `body` `count` times and records each duration.
    static func measure(runs count: Int, _ body: () throws -> Void) rethrows -> Timing {
        let clock = ContinuousClock()
        var runs: [Double] = []
        for _ in 0..<count {
            let elapsed = try clock.measure(body)
            runs.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return Timing(runs: runs.sorted())
    }

    /// `min 1.2 ms · median 1.3 ms`.
    var summary: String { "min \(BenchReport.duration(minimum)) · median \(BenchReport.duration(median))" }
}
