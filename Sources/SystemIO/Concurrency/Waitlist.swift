import Synchronization

/// Tasks parked until their owner's state lets them go, each with the `Condition` that says
/// when (a number of sleepers, a kind of quiet). It lives in the owner's `Mutex`: checking,
/// parking, taking and cancelling happen under that one lock (`Mutex.wait(on:for:isMet:)`),
/// so no change slips between a check and a park, and each waiter is resumed exactly once.
public struct Waitlist<Condition: Sendable>: Sendable {
    fileprivate struct Waiter: Sendable {
        let id: UInt64
        let condition: Condition
        let continuation: CheckedContinuation<Void, Never>
    }

    fileprivate var waiters: [Waiter] = []
    fileprivate var nextID: UInt64 = 0

    /// An empty list.
    public init() {}

    /// Removes the waiters whose condition `isMet` says is met and returns their
    /// continuations: resume each once the lock is released.
    public mutating func take(where isMet: (Condition) -> Bool) -> [CheckedContinuation<Void, Never>] {
        let met = waiters.filter { isMet($0.condition) }
        waiters.removeAll { isMet($0.condition) }
        return met.map(\.continuation)
    }
}

extension Mutex where Value: Sendable {
    /// Parks the calling task on the waitlist at `list` with `condition` until `take` hands it
    /// over. Returns at once when `isMet` already holds for the protected value or the task is
    /// cancelled, and early when the task is cancelled while parked: it parks on the lock,
    /// neither polling nor sleeping.
    public func wait<Condition: Sendable>(
        on list: WritableKeyPath<Value, Waitlist<Condition>> & Sendable, for condition: Condition,
        isMet: (Value) -> Bool
    ) async {
        let id = withLock { value in
            defer { value[keyPath: list].nextID &+= 1 }
            return value[keyPath: list].nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Checked under the lock: a cancellation that found nothing to resume came first.
                let done = withLock { value -> Bool in
                    if isMet(value) || Task.isCancelled { return true }
                    value[keyPath: list].waiters.append(.init(id: id, condition: condition, continuation: continuation))
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            let waiter = withLock { value -> Waitlist<Condition>.Waiter? in
                guard let index = value[keyPath: list].waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return value[keyPath: list].waiters.remove(at: index)
            }
            waiter?.continuation.resume()
        }
    }
}
