import StoreKitValues

/// What a screen's reducer asks of the root, in the order it asked: swift-composable-architecture's
/// returned effects and delegate actions in one list, since here every request is carried out
/// at once, before the next action.
struct Reaction: Hashable, Sendable {
    /// One request.
    enum Request: Hashable, Sendable {
        /// Run an effect (the runtime's work).
        case run(Effect)
        /// Show a message in the status line.
        case show(String, StatusMessage.Kind)
        /// Show a message and record it in the event log.
        case report(String, StatusMessage.Kind)
        /// Record a line in the event log only.
        case record(String, isError: Bool)
        /// Report a store error that belongs to no window.
        case fail(StoreError)
        /// Open a window (nil: close the one open), over what the window itself says.
        case present(Modal?)
        /// Send another screen (or the root) an action, reduced at once.
        case send(Action)
        /// Leave now with an exit status.
        case quit(status: Int32)
        /// Quit, after asking when downloads are under way.
        case askToQuit
    }

    /// The requests, in order.
    private(set) var requests: [Request]

    /// A reaction that asks for `requests`, in order.
    init(requests: [Request] = []) {
        self.requests = requests
    }

    /// Nothing to ask.
    static let none = Reaction()

    /// A reaction that runs `effects`.
    static func run(_ effects: Effect...) -> Reaction {
        Reaction(requests: effects.map(Request.run))
    }

    /// A reaction that opens `window`.
    static func present(_ window: Modal?) -> Reaction {
        Reaction(requests: [.present(window)])
    }

    /// A reaction that opens `window` and runs `load`, which loads what it shows.
    static func present(_ window: Modal, loading load: Effect) -> Reaction {
        Reaction(requests: [.present(window), .run(load)])
    }

    /// A reaction that sends `action`.
    static func send(_ action: Action) -> Reaction {
        Reaction(requests: [.send(action)])
    }

    /// Asks for `request` after what was asked so far.
    mutating func ask(_ request: Request) {
        requests.append(request)
    }

    /// Runs `effect` after what was asked so far.
    mutating func run(_ effect: Effect) {
        requests.append(.run(effect))
    }

    /// This reaction, then `other`'s requests.
    func then(_ other: Reaction) -> Reaction {
        Reaction(requests: requests + other.requests)
    }
}
