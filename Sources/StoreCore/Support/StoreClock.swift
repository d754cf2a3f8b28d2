import Foundation
import Synchronization

/// The engine's and the local store's only source of time, injected so tests never sleep.
public protocol StoreClock: Sendable {
    /// The current date.
    var now: Date { get }
    /// Waits for `duration` of this clock's time.
    func sleep(for duration: Duration) async throws
}

/// Real time.
public struct SystemClock: StoreClock {
    public init() {}
    public var now: Date { Date() }
    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        try await Task.sleep(for: duration)
    }
}

/// A clock that moves only when told to: sleepers wake when `advance` passes their deadline.
public final class ManualClock: StoreClock {
    private struct Sleeper {
        let deadline: Date
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
    }

    private let state: Mutex<State>

    /// Starts the clock at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        state = Mutex(State(now: start))
    }

    public var now: Date { state.withLock { $0.now } }

    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            state.withLock { state in
                state.sleepers.append(Sleeper(deadline: state.now.addingTimeInterval(seconds), continuation: continuation))
            }
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
