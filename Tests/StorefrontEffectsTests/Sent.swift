import StorefrontUI
import Synchronization

/// The actions one effect sent, for a test that runs it alone.
final class Sent: Sendable {
    private let list = Mutex<[Action]>([])

    var actions: [Action] { list.withLock { $0 } }

    @Sendable func append(_ action: Action) {
        list.withLock { $0.append(action) }
    }
}
