import Foundation

/// Runs a program as a whole process and times it from outside: its wall time (monotonic,
/// start to exit, start-up included) and, when children run one at a time, its CPU time (user
/// plus system, the kernel's accounting of reaped children).
enum CommandTiming {
    /// One run of a command.
    struct Run: Sendable {
        /// Seconds from the launch to the exit.
        var wall: Double
        /// User plus system seconds of the child (only meaningful when no other child of this
        /// process ran at the same time).
        var cpu: Double
        /// When it started and ended, in seconds of the monotonic clock.
        var started: Double
        var ended: Double
    }

    typealias Failure = BenchFailure

    /// Seconds on the monotonic clock.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// User plus system seconds of every child reaped so far.
    static func childrenCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Runs `executable arguments…` with its output discarded, in `environment` (this process's
    /// when nil); throws unless it exits 0.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: URL? = nil
    ) throws -> Run {
        let cpuBefore = childrenCPU()
        let started = now()
        let child = try SpawnedChild(
            executable, arguments, environment: environment, currentDirectory: currentDirectory, errors: .pipe)
        let problem = SpawnedChild.readToEnd(child.errors)
        let status = child.wait()
        let ended = now()
        let cpu = childrenCPU() - cpuBefore
        guard status == 0 else {
            throw Failure(
                description:
                    "\(([executable] + arguments).joined(separator: " ")) exited \(status): \(String(decoding: problem.prefix(400), as: UTF8.self))"
            )
        }
        return Run(wall: ended - started, cpu: cpu, started: started, ended: ended)
    }

    /// The median of `values` (the mean of the two middle ones for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The `p`-th percentile (0…100) of `values`, nearest rank.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
