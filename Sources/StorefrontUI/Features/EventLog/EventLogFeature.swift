import Foundation

/// The event log: every line the storefront records (what the engine did, each message shown),
/// the last `limit` of them; a pane beside the list (`l`) shows the latest, a window (`L`)
/// lists them all, Enter shows one whole.
public enum EventLogFeature: Feature {
    /// The most entries the log keeps.
    public static let limit = 500

    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        switch action {
        case .record(let entry):
            state.entries.append(entry)
            if state.entries.count > limit { state.entries.removeFirst(state.entries.count - limit) }
        case .togglePane:
            state.showsPane.toggle()
            return .send(.catalog(.layoutChanged))
        case .open:
            state.selected = max(0, state.entries.count - 1)
            state.showsDetail = false
            return .present(.log)
        case .key(let key):
            switch key {
            case .escape, .character("q"), .character("L"):
                if state.showsDetail {
                    state.showsDetail = false
                } else {
                    return .present(nil)
                }
            case .enter:
                guard !state.entries.isEmpty else { break }
                state.showsDetail.toggle()
            default:
                let page = max(1, PageView.visibleRows(in: root) - 1)
                if !state.showsDetail,
                    let next = KeyNavigation.moved(state.selected, by: key, count: state.entries.count, page: page)
                {
                    state.selected = next
                }
            }
        }
        return .none
    }
}
