import Synchronization

/// Counters of the store's disk work, for benchmarks and tests: how many `fsync`s, appends
/// and compactions the journal made. Safe to read from any thread.
public final class StoreMetrics: Sendable {
    private let fsyncCount = Atomic<Int>(0)
    private let appendCount = Atomic<Int>(0)
    private let compactionCount = Atomic<Int>(0)
    private let failedCompactionCount = Atomic<Int>(0)
    private let fsyncNanoseconds = Atomic<Int>(0)

    /// Creates zeroed counters.
    public init() {}

    /// `fsync` calls on files and directories so far.
    public var fsyncs: Int { fsyncCount.load(ordering: .relaxed) }
    /// Journal appends (each one write of one or more records, then one `fsync`).
    public var appends: Int { appendCount.load(ordering: .relaxed) }
    /// Journal compactions (rewrite to a temporary file, `fsync`, rename, `fsync` the directory).
    public var compactions: Int { compactionCount.load(ordering: .relaxed) }

    /// Compactions that failed after the write that started them was durable (the old
    /// journal stays; the next write tries again).
    public var failedCompactions: Int { failedCompactionCount.load(ordering: .relaxed) }

    /// Time spent waiting in `fsync` so far, in seconds.
    public var fsyncSeconds: Double { Double(fsyncNanoseconds.load(ordering: .relaxed)) / 1e9 }

    func countFsync() { fsyncCount.add(1, ordering: .relaxed) }
    func addFsyncTime(nanoseconds: UInt64) {
        fsyncNanoseconds.add(Int(clamping: nanoseconds), ordering: .relaxed)
    }
    func countAppend() { appendCount.add(1, ordering: .relaxed) }
    func countCompaction() { compactionCount.add(1, ordering: .relaxed) }
    func countFailedCompaction() { failedCompactionCount.add(1, ordering: .relaxed) }
}
