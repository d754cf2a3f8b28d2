/// A window as tall as the screen whose lines scroll: help, product details, a receipt or
/// transaction, the log. Lines wrap to the window's width beforehand, so nothing is cut.
enum PageView {
    /// The window's size on `state`'s screen.
    static func frame(_ state: State) -> (width: Int, height: Int) {
        (min(max(0, state.width - 4), 100), max(0, state.height - 2))
    }

    /// The width lines wrap to.
    static func contentWidth(_ state: State) -> Int { max(1, frame(state).width - 4) }

    /// How many lines show at once.
    static func visibleRows(in state: State) -> Int { max(1, frame(state).height - 2) }

    /// A page's scroll position moved by a key (nil when the key does not scroll), kept in
    /// 0…limit; a page key moves a screenful less a line.
    static func scrolled(_ scroll: Int, by key: Key, limit: Int, _ state: State) -> Int? {
        KeyNavigation.scrolled(scroll, by: key, limit: limit, page: max(1, visibleRows(in: state) - 1))
    }

    /// The largest scroll position for `lines` lines.
    static func scrollLimit(lines: Int, in state: State) -> Int { max(0, lines - visibleRows(in: state)) }

    /// Draws `lines` from `scroll` in a titled window with a footer, and a scroll marker on
    /// its right edge when they do not all fit.
    static func render(
        _ title: String, lines: [(String, CellStyle)], scroll: Int, footer: String, state: State,
        into screen: inout Screen
    ) {
        let (width, height) = frame(state)
        let top = max(0, min(scroll, scrollLimit(lines: lines.count, in: state)))
        let more = lines.count > visibleRows(in: state)
        let position = more ? "  \(top + 1)–\(min(lines.count, top + visibleRows(in: state)))/\(lines.count)" : ""
        let inner = SheetView.window(title, width: width, height: height, footer: footer + position, into: &screen)
        for (i, (text, style)) in lines.dropFirst(top).prefix(inner.height).enumerated() {
            screen.put(text, x: inner.x + 1, y: inner.y + i, style: style, maxWidth: inner.width - 2)
        }
        if more, inner.height > 0 {
            let maxTop = max(1, lines.count - inner.height)
            let y = inner.y + (inner.height - 1) * top / maxTop
            screen.set(Cell("┃", style: Theme.focusedBorder), x: inner.maxX, y: y)
        }
    }

    /// `text` wrapped to the page's width, each line in `style`, after `indent`.
    static func wrapped(_ text: String, _ style: CellStyle, width: Int, indent: Int = 0) -> [(String, CellStyle)] {
        let pad = String(repeating: " ", count: indent)
        return TextLayout.wrap(text, width: max(1, width - indent)).map { (pad + $0, style) }
    }
}
