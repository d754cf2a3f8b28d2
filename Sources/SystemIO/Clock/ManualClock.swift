import Foundation
import Synchronization

/// A clock that moves only when told to: sleepers wake when `advance` passes their deadline,
/// or with `CancellationError` when their task is cancelled.
public final class ManualClock: StoreClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var nextSleeperID: UInt64 = 0
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
    /// A cancelled task is woken with `CancellationError`, also when it was cancelled before
    /// it registered (the flag is read under the same lock the cancellation handler takes).
    private func wait(_ deadline: @escaping (Date) -> Date) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextSleeperID += 1
            return state.nextSleeperID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    let at = deadline(state.now)
                    guard at > state.now else { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: at, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
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
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }
}
