import Synchronization

/// What a test saw happen, in order, with an `await` for "at least n so far" instead of a
/// busy-wait.
final class Recorder<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: Int
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var items: [Element] = []
        var waiters: [Waiter] = []
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Everything recorded so far.
    var items: [Element] { state.withLock { $0.items } }

    /// Records `item` and wakes whoever waits for this many.
    func append(_ item: Element) {
        let ready = state.withLock { state in
            state.items.append(item)
            let count = state.items.count
            let ready = state.waiters.filter { $0.count <= count }
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once at least `count` items were recorded, or when the waiting task is
    /// cancelled (the suite's time limit), so a runtime that never delivers fails the test
    /// rather than hanging it.
    func waitUntil(count: Int) async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let reached = state.withLock { state in
                    guard state.items.count < count, !Task.isCancelled else { return true }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if reached { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume()
        }
    }
}
