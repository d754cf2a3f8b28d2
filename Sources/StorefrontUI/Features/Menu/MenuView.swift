/// The menu: each item with its key, and whether an App Store Server runs on the data directory.
enum MenuView {
    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let items = MenuItem.allCases
        let server = state.serverURL.map { s("App Store Server: {}", $0) } ?? s("App Store Server: not running")
        let width = max(items.map { DisplayWidth.of(s($0.label)) }.max() ?? 20, DisplayWidth.of(server) - 5) + 10
        let inner = SheetView.window(
            s("Menu"), width: max(30, width), height: items.count + 6, footer: "Enter · Esc", into: &screen)
        for (i, item) in items.enumerated() {
            SheetView.line(String(item.key), inner, 1 + i, style: Theme.key, indent: 2, into: &screen)
            SheetView.line(s(item.label), inner, 1 + i, indent: 5, into: &screen)
            if i == state.menu.selected { SheetView.highlight(inner, 1 + i, into: &screen) }
        }
        SheetView.line(
            server, inner, items.count + 2, style: state.serverURL == nil ? Theme.secondary : Theme.owned, indent: 2,
            into: &screen)
    }
}
