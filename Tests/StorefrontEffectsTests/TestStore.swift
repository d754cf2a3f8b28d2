import StorefrontEffects
import StorefrontUI
import Synchronization
import Testing

/// swift-composable-architecture's `TestStore`, for the storefront: `send` an action and say
/// how the state changes; the effects `reduce` returns run at once against a fake store, and
/// each action they send back must be `receive`d, in order, with its own change. A change not
/// described (unless `exhaustivity` is off), an action not received, or an action received that was not sent fails the test.
///
/// The runtime's own effects (`.every`, `.tick`, `.cancel`, `.quit`) are not run: they are in
/// `effects`, the last `send`'s or `receive`'s effects, for the test to assert.
final class TestStore {
    /// How much of a change a step must describe (swift-composable-architecture's
    /// `exhaustivity`).
    enum Exhaustivity {
        /// All of it: the state before, changed as described, is the state after.
        case on
        /// What it says: the state after, changed as described, stays as it is (for a load
        /// whose derived state, a list's layout, is another suite's to check).
        case off
    }

    var exhaustivity = Exhaustivity.on
    private(set) var state: State
    /// The effects the last step returned, in order.
    private(set) var effects: [Effect] = []
    private let handler: StorefrontEffects
    private let inbox = Inbox()

    init(_ state: State, store: any StorefrontStore) {
        self.state = state
        handler = StorefrontEffects(store: store)
    }

    /// Sends `action` and checks the state it leaves: `state` before, changed by `change`.
    func send(
        _ action: Action, sourceLocation: SourceLocation = #_sourceLocation, _ change: (inout State) -> Void = { _ in }
    ) async {
        expectNothingReceived(before: "sending \(action)", sourceLocation)
        await step(action, change, sourceLocation)
    }

    /// Takes the next action the effects sent, checks it is `expected`, and reduces it,
    /// checking the state as `send` does.
    func receive(
        _ expected: Action, sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout State) -> Void = { _ in }
    ) async {
        guard let action = inbox.actions.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
            Issue.record(
                "expected to receive \(expected), but the effects sent nothing more", sourceLocation: sourceLocation)
            return
        }
        #expect(action == expected, "received a different action", sourceLocation: sourceLocation)
        await step(action, change, sourceLocation)
    }

    /// Runs `effect` as the runtime would when its schedule fires (a periodic effect, whose
    /// schedule `.every` the runtime owns): what it sends is then to be received.
    func fire(_ effect: Effect, sourceLocation: SourceLocation = #_sourceLocation) async {
        expectNothingReceived(before: "running \(effect)", sourceLocation)
        await handler.perform(effect) { [inbox] action in inbox.actions.withLock { $0.append(action) } }
    }

    /// Checks that every action the effects sent was received.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        expectNothingReceived(before: "finishing", sourceLocation)
    }

    private func step(_ action: Action, _ change: (inout State) -> Void, _ sourceLocation: SourceLocation) async {
        var expected = state
        effects = reduce(state: &state, action: action)
        if exhaustivity == .off { expected = state }
        change(&expected)
        if state != expected {
            Issue.record(
                "the state changed otherwise than described: \(Self.difference(expected, state))",
                sourceLocation: sourceLocation)
        }
        for effect in effects where !Self.isRuntimes(effect) {
            await handler.perform(effect) { [inbox] action in inbox.actions.withLock { $0.append(action) } }
        }
    }

    private func expectNothingReceived(before what: String, _ sourceLocation: SourceLocation) {
        let left = inbox.actions.withLock { $0 }
        if !left.isEmpty {
            Issue.record("actions not received before \(what): \(left)", sourceLocation: sourceLocation)
        }
    }

    /// The effects the runtime runs itself.
    private static func isRuntimes(_ effect: Effect) -> Bool {
        switch effect {
        case .every, .tick, .cancel, .quit: true
        default: false
        }
    }

    /// The stored properties whose values differ, each as expected → actual.
    static func difference(_ expected: State, _ actual: State) -> String {
        let left = Mirror(reflecting: expected).children
        let right = Mirror(reflecting: actual).children
        return zip(left, right).compactMap { e, a in
            let (expectedText, actualText) = (String(describing: e.value), String(describing: a.value))
            return expectedText == actualText ? nil : "\(e.label ?? "?"): \(expectedText) → \(actualText)"
        }.joined(separator: "; ")
    }
}

/// What the effects sent and the test has not received yet, in order.
private final class Inbox: Sendable {
    let actions = Mutex<[Action]>([])
}
