import Foundation

/// What a running process's threads have done so far, from `/proc/PID/task`: the nanoseconds
/// they spent on a CPU (`schedstat`) and how many times they were switched out, waiting or
/// preempted (`voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches`). Two readings apart say
/// whether an idle process woke, and for how long; threads that ended in between are not
/// counted.
struct ProcessActivity {
    var cpuNanoseconds: UInt64 = 0
    var contextSwitches = 0

    /// The process's threads' activity now (zero when it cannot be read).
    static func of(_ pid: Int32) -> ProcessActivity {
        var activity = ProcessActivity()
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            let base = "/proc/\(pid)/task/\(task)/"
            if let schedstat = try? String(contentsOfFile: base + "schedstat", encoding: .utf8),
                let onCPU = schedstat.split(separator: " ").first.flatMap({ UInt64($0) })
            {
                activity.cpuNanoseconds += onCPU
            }
            let status = (try? String(contentsOfFile: base + "status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                activity.contextSwitches += Int(line.split(separator: "\t").last ?? "") ?? 0
            }
        }
        return activity
    }
}
