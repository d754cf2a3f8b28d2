import Foundation

/// Bytes per second over the last few seconds of a clock, from (time, total bytes) samples.
struct RateMeter: Sendable {
    private var samples: [(time: Date, bytes: Int64)] = []
    /// How far back samples count.
    let window: TimeInterval

    init(window: TimeInterval = 3) { self.window = window }

    /// Notes that `bytes` were written in total by `time`.
    mutating func record(_ bytes: Int64, at time: Date) {
        samples.append((time, bytes))
        let horizon = time.addingTimeInterval(-window)
        // Keep one sample at or before the horizon so the window is always covered.
        while samples.count > 2, samples[1].time <= horizon { samples.removeFirst() }
    }

    /// The rate over the window, 0 until time has passed.
    var bytesPerSecond: Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        let seconds = last.time.timeIntervalSince(first.time)
        guard seconds > 0.001 else { return 0 }
        return Double(max(0, last.bytes - first.bytes)) / seconds
    }

    /// Forgets every sample (after a pause).
    mutating func reset() { samples.removeAll() }
}
