import Foundation

/// What a running process's threads have done so far, from `/proc/PID/task`, thread by thread:
/// the nanoseconds each spent on a CPU (`schedstat`) and how many times it was switched out,
/// waiting or preempted (`voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches`). Two readings
/// apart say whether an idle process woke, and for how long (`since`).
struct ProcessActivity {
    /// Each thread's (CPU nanoseconds, context switches), by thread ID.
    var threads: [String: (cpuNanoseconds: UInt64, contextSwitches: Int)] = [:]

    /// The process's threads' activity now (none when it cannot be read).
    static func of(_ pid: Int32) -> ProcessActivity {
        var activity = ProcessActivity()
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            let base = "/proc/\(pid)/task/\(task)/"
            guard let schedstat = try? String(contentsOfFile: base + "schedstat", encoding: .utf8),
                let onCPU = schedstat.split(separator: " ").first.flatMap({ UInt64($0) })
            else { continue }
            var switches = 0
            let status = (try? String(contentsOfFile: base + "status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                switches += Int(line.split(separator: "\t").last ?? "") ?? 0
            }
            activity.threads[task] = (onCPU, switches)
        }
        return activity
    }

    /// What the threads alive now did since `earlier`: a thread that ended in between takes its
    /// counts with it (it is not counted), one that started in between counts from zero.
    /// - Returns: the CPU nanoseconds and the context switches.
    func since(_ earlier: ProcessActivity) -> (cpuNanoseconds: UInt64, contextSwitches: Int) {
        var total: (cpuNanoseconds: UInt64, contextSwitches: Int) = (0, 0)
        for (task, now) in threads {
            let before = earlier.threads[task] ?? (0, 0)
            total.cpuNanoseconds += now.cpuNanoseconds &- before.cpuNanoseconds
            total.contextSwitches += now.contextSwitches - before.contextSwitches
        }
        return total
    }
}
