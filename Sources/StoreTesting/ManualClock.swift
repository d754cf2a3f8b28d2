import Foundation
import StoreKitValues
import Synchronization
internal import SystemIO

/// A clock that moves only when told to: sleepers wake when `advance` passes their deadline,
/// or throw `CancellationError` at once when their task is cancelled (as `Task.sleep` does).
public final class ManualClock: StoreClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var nextSleeper: UInt64 = 0
        /// The tasks in `waitForSleepers`, each parked until its count of tasks sleep at once.
        var watchers = Waitlist<Int>()
    }

    private let state: Mutex<State>

    /// Starts the clock at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        state = Mutex(State(now: start))
    }

    /// The clock's current time.
    public var now: Date { state.withLock { $0.now } }

    /// Waits until `advance` has moved the clock `duration` past the time of the call.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        try await wait { $0.addingTimeInterval(seconds) }
    }

    /// Waits until `advance` has moved the clock to `deadline` (at once when it is there).
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Date) async throws {
        try await wait { _ in deadline }
    }

    /// Parks the caller until `advance` reaches the deadline computed from the time at which
    /// it registers, under the lock: no advance can slip between reading the time and waiting.
    /// A cancelled caller is unparked and throws; the cancellation flag is set before the
    /// handler runs, so checking it under the lock closes the gap before registration.
    private func wait(_ deadline: @escaping (Date) -> Date) async throws {
        let id = state.withLock { state in
            defer { state.nextSleeper &+= 1 }
            return state.nextSleeper
        }
        let woken = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let (registered, satisfied) = state.withLock { state -> (Bool?, [CheckedContinuation<Void, Never>]) in
                    let at = deadline(state.now)
                    guard at > state.now else { return (nil, []) }
                    guard !Task.isCancelled else { return (false, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: at, continuation: continuation))
                    let count = state.sleepers.count
                    return (true, state.watchers.take { $0 <= count })
                }
                switch registered {
                case nil: continuation.resume(returning: true)
                case false?: continuation.resume(returning: false)
                case true?: break
                }
                for watcher in satisfied { watcher.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(returning: false)
        }
        if !woken { throw CancellationError() }
    }

    /// Moves time forward by `seconds` and wakes every sleeper whose deadline has passed.
    public func advance(by seconds: TimeInterval) {
        let woken: [Sleeper] = state.withLock { state in
            state.now = state.now.addingTimeInterval(seconds)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume(returning: true) }
    }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Returns once at least `count` tasks sleep on this clock at the same time (at once if
    /// they already do), so a test can advance time knowing who will see it. It parks on the
    /// clock, neither polling nor sleeping; cancelling the waiting task ends the wait early.
    public func waitForSleepers(_ count: Int = 1) async {
        await state.wait(on: \.watchers, for: count) { $0.sleepers.count >= count }
    }
}
