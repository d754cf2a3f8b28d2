import Foundation
import StoreKitValues

extension ManualClock {
    /// Steps a task that sleeps on this clock between pieces of work through `times` of them:
    /// each time a task sleeps, moves time on by `seconds`; then waits until one sleeps again,
    /// so the task is parked, not mid-piece, when this returns. Never sleeps on the wall clock.
    public func step(_ times: Int, by seconds: TimeInterval) async {
        for _ in 0..<times {
            await waitForSleepers()
            advance(by: seconds)
        }
        await waitForSleepers()
    }
}
