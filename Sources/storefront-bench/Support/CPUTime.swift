import Foundation

/// CPU seconds (user + system) used so far, from `getrusage`: by this process (every thread),
/// or by its waited-for children.
enum CPUTime {
    /// This process's CPU seconds so far.
    static func ofSelf() -> Double { seconds(RUSAGE_SELF.rawValue) }

    /// The waited-for children's CPU seconds so far.
    static func ofChildren() -> Double { seconds(RUSAGE_CHILDREN.rawValue) }

    private static func seconds(_ who: Int32) -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(who), &usage)
        func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return value(usage.ru_utime) + value(usage.ru_stime)
    }
}
