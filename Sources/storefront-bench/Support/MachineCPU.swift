import Foundation

/// What every core of the machine did so far, from the `cpu` line of `/proc/stat`: seconds
/// busy (any process, this bench's children or anyone else's), idle, and idle waiting for the
/// disk. Two snapshots around a run tell whether the run's processes were short of CPU (the
/// machine had no idle time left) or waited on something else (it had).
struct MachineCPU {
    /// Seconds of all cores running anything (user, nice, system, interrupts, steal).
    var busy: Double
    /// Seconds of all cores idle with no disk wait outstanding.
    var idle: Double
    /// Seconds of all cores idle while a disk wait was outstanding (`iowait`).
    var ioWait: Double

    /// The machine's counters now (zeros where `/proc/stat` cannot be read).
    static func now() -> MachineCPU {
        let text = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? ""
        let first = text.split(separator: "\n").first { $0.hasPrefix("cpu ") } ?? ""
        let ticks = first.split(separator: " ").dropFirst().map { Double($0) ?? 0 }
        guard ticks.count >= 5 else { return MachineCPU(busy: 0, idle: 0, ioWait: 0) }
        let hertz = Double(sysconf(Int32(_SC_CLK_TCK)))
        // user nice system idle iowait irq softirq steal (guest time is inside user already).
        let busy = ticks.prefix(8).enumerated().filter { $0.offset != 3 && $0.offset != 4 }.map(\.element)
        return MachineCPU(busy: busy.reduce(0, +) / hertz, idle: ticks[3] / hertz, ioWait: ticks[4] / hertz)
    }

    /// What the machine did between `earlier` and this snapshot.
    func since(_ earlier: MachineCPU) -> MachineCPU {
        MachineCPU(busy: busy - earlier.busy, idle: idle - earlier.idle, ioWait: ioWait - earlier.ioWait)
    }
}
