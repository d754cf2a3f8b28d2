/// A screen of the storefront, composed into the root as swift-composable-architecture composes
/// its features: the screen's `State` is a property of the root `State`, its `Action` is a case
/// of the root `Action`, and the root hands it its actions with `State.scope`.
///
/// A screen changes only its own state. Whatever crosses screens — the runtime's work, the
/// status line, the event log, which window is open, another screen's action — it asks of the
/// root in its `Reaction`, which the root carries out, in order, once the screen is done.
///
/// To add a screen: a folder under `Features/` with its `…Feature` (this protocol), its `State`,
/// its `Action` and its view; a property for its state in the root `State`; a case for its
/// actions in the root `Action` and in `State.update`; for a window, a `Modal` case, its keys
/// routed in `KeyRouting.swift` and its view drawn in `Render.swift`; for work outside the
/// storefront, an `Effect` run by `StorefrontEffects`. Decision 0080 walks through it.
protocol Feature {
    /// What the screen keeps.
    associatedtype State: ScreenState
    /// What can happen to the screen: its keys, its effects' results.
    associatedtype Action: Hashable & Sendable

    /// Applies `action` to the screen's `state`.
    /// - Parameters:
    ///   - state: the screen's state, changed in place.
    ///   - action: what happened.
    ///   - root: the rest of the storefront, as it was before the action. The screen's own
    ///     state is not in it (it is `state`, lent out while the screen works): read `state`.
    /// - Returns: what the screen asks of the root, in order.
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction
}

extension State {
    /// Hands `action` to the screen whose state is at `path`, then carries out its reaction:
    /// swift-composable-architecture's `Scope(state:action:)`.
    ///
    /// The screen's state is taken out of the root while the screen works (the root keeps an
    /// empty one), so it changes its own copy in place and never copies what it holds.
    mutating func scope<F: Feature>(
        _ path: WritableKeyPath<State, F.State>, _ feature: F.Type, _ action: F.Action
    ) -> [Effect] {
        var child = F.State()
        swap(&child, &self[keyPath: path])
        let reaction = F.reduce(&child, action, self)
        swap(&child, &self[keyPath: path])
        return carryOut(reaction)
    }

    /// Carries out what a screen asked, in order: the effects are returned for the runtime, the
    /// rest changes the root (and other screens, through their actions).
    mutating func carryOut(_ reaction: Reaction) -> [Effect] {
        var effects: [Effect] = []
        for request in reaction.requests {
            switch request {
            case .run(let effect): effects.append(effect)
            case .show(let text, let kind): show(text, kind: kind)
            case .report(let text, let kind): report(text, kind: kind)
            case .record(let text, let isError): record(text, isError: isError)
            case .fail(let error): fail(error)
            case .present(let window): modal = window
            case .send(let action): effects += update(action)
            case .quit(let status): effects += quit(status: status)
            case .askToQuit: effects += askToQuit()
            }
        }
        return effects
    }
}

/// A screen's state: it starts empty, before anything is loaded or opened.
protocol ScreenState: Equatable, Sendable {
    /// The screen before anything is loaded or opened.
    init()
}
