import StorefrontUI
import Synchronization

/// Actions sent from effect tasks and store observers, waiting for the event loop: one lock,
/// and a poke on the loop's wake pipe so it never polls.
final class ActionInbox: Sendable {
    private let queue = Mutex<[Action]>([])
    private let waker: Terminal.Waker

    init(waker: Terminal.Waker) { self.waker = waker }

    /// Adds an action and wakes the loop.
    func post(_ action: Action) {
        queue.withLock { $0.append(action) }
        waker.wake()
    }

    /// Takes every waiting action, oldest first.
    func drain() -> [Action] {
        queue.withLock { queue in
            let taken = queue
            queue.removeAll(keepingCapacity: true)
            return taken
        }
    }
}
