/// The renewal choice over My Purchases: what the commitment renews into, the current one
/// marked ✓, the selected one highlighted.
enum RenewalChoiceView {
    static func render(_ choice: RenewalChoice, _ state: State, into screen: inout Screen) {
        let s = state.strings
        let width = min(screen.width - 6, 96)
        let inner = SheetView.window(
            s("When the Commitment of {} Ends", state.name(of: choice.productID)), width: width,
            height: min(screen.height - 4, choice.options.count + 4), footer: "↑↓ · Enter · Esc", into: &screen)
        guard !inner.isEmpty else { return }
        let visible = max(1, inner.height - 2)
        let top = SheetView.top(selected: choice.selected, visible: visible, count: choice.options.count)
        for (i, option) in choice.options.enumerated().dropFirst(top).prefix(visible) {
            let row = 1 + i - top
            let mark = i == choice.current ? "✓ " : "  "
            SheetView.line(
                mark + RenewalChoice.label(option, state), inner, row,
                style: i == choice.current ? Theme.owned : .plain,
                indent: 2, into: &screen)
            if i == choice.selected { SheetView.highlight(inner, row, into: &screen) }
        }
    }
}
