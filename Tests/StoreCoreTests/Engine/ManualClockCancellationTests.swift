import Foundation
import StoreTesting
import Testing

@testable import StoreCore

/// A sleep on the manual clock ends with `CancellationError` when its task is cancelled,
/// before or while it sleeps, and leaves no sleeper behind; other sleepers keep sleeping.
@Suite(.timeLimit(.minutes(10)))
struct ManualClockCancellationTests {
    @Test func aSleepingTaskCancelledWakesWithCancellationError() async throws {
        let clock = ManualClock()
        let other = Task { try await clock.sleep(for: .seconds(60)) }
        let sleeper = Task { try await clock.sleep(until: clock.now.addingTimeInterval(3600)) }
        await clock.waitForSleepers(2)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 1, "the other sleeper still sleeps")
        clock.advance(by: 60)
        try await other.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func aTaskCancelledBeforeItSleepsDoesNotSleep() async {
        let clock = ManualClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }
}
