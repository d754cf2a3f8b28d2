/// Storefront & Language: the storefronts (code, country, currency) beside the catalog's
/// locales; each column scrolls with its selection.
enum StorefrontsView {
    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let (selected, localeSelected, column) = (
            state.storefronts.storefront, state.storefronts.locale, state.storefronts.column
        )
        let options = state.context?.storefronts ?? []
        let locales = state.context?.locales ?? []
        let height = min(screen.height - 2, max(options.count, locales.count) + 5)
        let localeWidth = max(DisplayWidth.of(s("Language")), (locales.map { DisplayWidth.of($0) }.max() ?? 5) + 2) + 2
        let names = options.map { DisplayWidth.of($0.name) }.max() ?? 10
        let width = min(screen.width - 2, 3 + 3 + 2 + names + 2 + 3 + 3 + localeWidth + 2)
        let inner = SheetView.window(
            s("Storefront & Language"), width: width, height: height,
            footer: "A–Z · Tab · Enter · Esc", into: &screen)
        guard !inner.isEmpty else { return }
        let visible = max(1, inner.height - 3)
        if selected < options.count {
            let choice = locales.indices.contains(localeSelected) ? locales[localeSelected] : options[selected].locale
            SheetView.line(
                "→ \(options[selected].code) · \(choice)", inner, inner.height - 1, style: Theme.key, indent: 2,
                into: &screen)
        }
        let listWidth = max(10, inner.width - localeWidth - 2)
        let table = TableLayout(
            columns: [
                TableColumn(natural: 1, priority: 0),
                TableColumn(natural: 3, priority: 0),
                TableColumn(natural: names, minimum: 8, priority: 2, flexible: true),
                TableColumn(natural: 3, priority: 1),
            ], width: listWidth - 2, gap: 1)
        SheetView.line(
            s("Storefront"), inner, 0, style: column == 0 ? Theme.heading : Theme.secondary, indent: 2, into: &screen)
        screen.put(
            s("Language"), x: inner.x + listWidth + 1, y: inner.y, style: column == 1 ? Theme.heading : Theme.secondary,
            maxWidth: localeWidth)
        let top = SheetView.top(selected: selected, visible: visible, count: options.count)
        for (i, option) in options.enumerated().dropFirst(top).prefix(visible) {
            let y = inner.y + 1 + i - top
            let style: CellStyle = i == selected ? (column == 0 ? Theme.selected : Theme.title) : .plain
            screen.fill(Rect(x: inner.x + 1, y: y, width: listWidth, height: 1), with: Cell(" ", style: style))
            let texts = [
                option.code == state.context?.storefront ? "●" : " ", option.code, option.name, option.currencyCode,
            ]
            for placement in table.place(texts) where placement.width > 0 {
                screen.put(placement.text, x: inner.x + 2 + placement.x, y: y, style: style, maxWidth: placement.width)
            }
        }
        let localeTop = SheetView.top(selected: localeSelected, visible: visible, count: locales.count)
        for (i, locale) in locales.enumerated().dropFirst(localeTop).prefix(visible) {
            let current = locale == state.context?.locale ? "●" : " "
            let style: CellStyle = i == localeSelected ? (column == 1 ? Theme.selected : Theme.title) : .plain
            screen.put(
                TextLayout.pad("\(current) \(locale)", to: localeWidth), x: inner.x + listWidth + 1,
                y: inner.y + 1 + i - localeTop, style: style)
        }
    }
}
