/// A question before something that cannot be undone (a refund, an expiry, cancelling a
/// download, quitting while downloads run): y does it, n goes back to the window beneath.
public enum QuestionsFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        switch action {
        case .ask(let question, let over):
            state.asked = question
            return .present(.question(over: over))
        case .key(let key):
            let beneath: Modal? = if case .question(let over) = root.modal { over } else { nil }
            switch key {
            case .enter, .character("y"), .character("Y"):
                if case .quit = state.asked { return Reaction(requests: [.present(beneath), .quit(status: 0)]) }
                return Reaction(requests: [.present(beneath), .run(state.asked.effect)])
            case .escape, .character("n"), .character("N"), .character("q"):
                return .present(beneath)
            default:
                return .none
            }
        }
    }
}
