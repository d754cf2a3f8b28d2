import Foundation
import StoreKitValues
import StoreTesting
import SystemIO

/// A `ManualClock` that also tells when a sleep begins, so a test can `await` a sleeper
/// instead of polling `sleeperCount`. (TestSupport's shared clock waits may replace it.)
///
/// Each sleep's deadline is fixed before it is announced, so an `advance` made as soon as the
/// announcement arrives is never missed: a sleep whose deadline has passed returns at once.
final class ObservedClock: StoreClock {
    let base = ManualClock()
    /// The durations slept for, one per sleep begun, in order.
    let sleeps = Recorder<Duration>()

    var now: Date { base.now }

    func sleep(for duration: Duration) async throws {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let deadline = base.now.addingTimeInterval(seconds)
        sleeps.append(duration)
        try await base.sleep(until: deadline)
    }

    func sleep(until deadline: Date) async throws {
        sleeps.append(.seconds(deadline.timeIntervalSince(base.now)))
        try await base.sleep(until: deadline)
    }

    /// Moves time forward, waking the sleepers whose deadline passed.
    func advance(by seconds: TimeInterval) { base.advance(by: seconds) }

    /// Returns once `count` sleeps have begun (ended ones included).
    func sleepsBegun(_ count: Int) async { await sleeps.waitUntil(count: count) }
}
