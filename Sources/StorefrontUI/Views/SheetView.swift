import Foundation
import StoreKitValues

/// What the windows drawn over the list share (each window is its screen's view, in its
/// folder): a centered window, a line in it, a highlighted row.
enum SheetView {
    /// Clears and frames a centered window; returns its inside.
    static func window(
        _ title: String, width: Int, height: Int, footer: String? = nil, into screen: inout Screen
    ) -> Rect {
        let rect = screen.bounds.inset(dx: 1, dy: 1).centered(width: width, height: height)
        screen.fill(rect)
        let inner = screen.box(
            rect, border: .rounded, style: Theme.focusedBorder, title: title, titleStyle: Theme.title)
        if let footer, rect.height > 2 {
            let text = " " + TextLayout.truncate(footer, to: max(0, rect.width - 6)) + " "
            let w = DisplayWidth.of(text)
            screen.put(
                text, x: max(rect.x + 1, rect.maxX - 1 - w - 1), y: rect.maxY - 1, style: Theme.secondary,
                maxWidth: rect.width - 2)
        }
        return inner
    }

    /// Draws one line of a window's inside, cut with `…` only at the window's edge.
    static func line(
        _ text: String, _ inner: Rect, _ row: Int, style: CellStyle = .plain, indent: Int = 1,
        into screen: inout Screen
    ) {
        guard row >= 0, row < inner.height else { return }
        let room = max(0, inner.width - indent - 1)
        screen.put(TextLayout.truncate(text, to: room), x: inner.x + indent, y: inner.y + row, style: style)
    }

    /// Shows a window's row as selected.
    static func highlight(_ inner: Rect, _ row: Int, into screen: inout Screen) {
        guard row >= 0, row < inner.height else { return }
        screen.restyle(Rect(x: inner.x, y: inner.y + row, width: inner.width, height: 1)) {
            $0.attributes.insert(.reverse)
        }
    }

    /// The first row to show so `selected` is on screen in `visible` rows of `count`.
    static func top(selected: Int, visible: Int, count: Int) -> Int {
        max(0, min(selected - visible / 2, count - visible))
    }
}
