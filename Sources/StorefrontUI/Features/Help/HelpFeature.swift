/// Every key, by where it works, in a window that scrolls (`?`, F1).
public enum HelpFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        switch action {
        case .open:
            state.scroll = 0
            return .present(.help)
        case .key(let key):
            if key == .escape || key == .character("q") || key == .character("?") || key == .enter {
                return .present(nil)
            }
            let limit = PageView.scrollLimit(lines: HelpView.lines(root).count, in: root)
            if let next = PageView.scrolled(state.scroll, by: key, limit: limit, root) { state.scroll = next }
            return .none
        }
    }
}
