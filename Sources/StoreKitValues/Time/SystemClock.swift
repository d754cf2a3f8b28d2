import Foundation

/// Real time.
public struct SystemClock: StoreClock {
    /// Creates the real clock.
    public init() {}
    /// The current date.
    public var now: Date { Date() }
    /// Sleeps for `duration` of real time; throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        try await Task.sleep(for: duration)
    }

    /// Sleeps until `deadline`; throws `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return }
        try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }
}
