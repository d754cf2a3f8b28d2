/// Store Settings: each setting's label and value (`◂ 1.0 MB/s ▸`), and what the selected one
/// does, wrapped below.
enum SettingsView {
    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let (settings, selected) = (state.settings.rows, state.settings.selected)
        let width = min(screen.width - 2, 80)
        let helpLines =
            selected < settings.count
            ? TextLayout.wrap(s(settings[selected].help), width: max(1, width - 6)) : []
        let height = min(screen.height - 2, max(5, settings.count + 5 + helpLines.count))
        let inner = SheetView.window(
            s("Store Settings"), width: width, height: height, footer: "←→ Enter · Esc", into: &screen)
        if settings.isEmpty {
            SheetView.line(s("Loading…"), inner, 1, style: Theme.secondary, indent: 2, into: &screen)
        }
        let labels = settings.map { s($0.label) }
        let values = settings.map { "◂ " + SettingsFeature.displayValue(of: $0, $0.value, s) + " ▸" }
        let table = TableLayout(
            columns: [
                TableColumn(natural: labels.map { DisplayWidth.of($0) }.max() ?? 0, minimum: 12, priority: 0),
                TableColumn(natural: values.map { DisplayWidth.of($0) }.max() ?? 0, priority: 1, flexible: true),
            ], width: max(0, inner.width - 3))
        let visible = max(1, inner.height - 2 - helpLines.count)
        let top = SheetView.top(selected: selected, visible: visible, count: settings.count)
        for (i, setting) in settings.enumerated().dropFirst(top).prefix(visible) {
            let row = 1 + i - top
            let placed = table.place([labels[i], values[i]])
            let styles = [CellStyle.plain, setting.value == "on" ? Theme.owned : Theme.price]
            for (column, placement) in placed.enumerated() where placement.width > 0 {
                screen.put(
                    placement.text, x: inner.x + 2 + placement.x, y: inner.y + row, style: styles[column],
                    maxWidth: placement.width)
            }
            if i == selected { SheetView.highlight(inner, row, into: &screen) }
        }
        for (i, text) in helpLines.enumerated() {
            SheetView.line(
                text, inner, inner.height - helpLines.count + i, style: Theme.secondary, indent: 2, into: &screen)
        }
    }
}
