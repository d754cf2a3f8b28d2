import Foundation

/// What a running process's threads have done so far, from `/proc/PID/task`, thread by thread:
/// the nanoseconds each spent on a CPU (`schedstat`) and how many times it was switched out,
/// waiting or preempted (`voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches`). Two readings
/// apart say whether an idle process woke, and for how long (`since`).
struct ProcessActivity {
    /// What one thread did so far.
    struct Counts {
        /// Nanoseconds on a CPU (schedstat's first field).
        var cpuNanoseconds: UInt64 = 0
        /// Nanoseconds runnable but waiting for a CPU (schedstat's second field).
        var waitingNanoseconds: UInt64 = 0
        /// Voluntary and involuntary context switches.
        var contextSwitches = 0
    }

    /// Each thread's counts, by thread ID.
    var threads: [String: Counts] = [:]

    /// The process's threads' activity now (none when it cannot be read).
    static func of(_ pid: Int32) -> ProcessActivity {
        var activity = ProcessActivity()
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            let base = "/proc/\(pid)/task/\(task)/"
            guard let schedstat = try? String(contentsOfFile: base + "schedstat", encoding: .utf8) else { continue }
            let fields = schedstat.split(separator: " ").map { UInt64($0) }
            guard fields.count >= 2, let onCPU = fields[0], let waiting = fields[1] else { continue }
            var switches = 0
            let status = (try? String(contentsOfFile: base + "status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                switches += Int(line.split(separator: "\t").last ?? "") ?? 0
            }
            activity.threads[task] = Counts(
                cpuNanoseconds: onCPU, waitingNanoseconds: waiting, contextSwitches: switches)
        }
        return activity
    }

    /// What the threads alive now did since `earlier`: a thread that ended in between takes its
    /// counts with it (it is not counted), one that started in between counts from zero.
    /// - Returns: the sums over those threads.
    func since(_ earlier: ProcessActivity) -> Counts {
        var total = Counts()
        for (task, now) in threads {
            let before = earlier.threads[task] ?? Counts()
            total.cpuNanoseconds += now.cpuNanoseconds &- before.cpuNanoseconds
            total.waitingNanoseconds += now.waitingNanoseconds &- before.waitingNanoseconds
            total.contextSwitches += now.contextSwitches - before.contextSwitches
        }
        return total
    }
}
