import Foundation
import Synchronization

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
        await wait { $0.addingTimeInterval(seconds) }
    }

    public func sleep(until deadline: Date) async throws {
        await wait { _ in deadline }
    }

    /// Parks the caller until `advance` reaches the deadline computed from the time at which
    /// it registers, under the lock: no advance can slip between reading the time and waiting.
    private func wait(_ deadline: @escaping (Date) -> Date) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let due = state.withLock { state -> Bool in
                let at = deadline(state.now)
                guard at > state.now else { return true }
                state.sleepers.append(Sleeper(deadline: at, continuation: continuation))
                return false
            }
            if due { continuation.resume() }
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
