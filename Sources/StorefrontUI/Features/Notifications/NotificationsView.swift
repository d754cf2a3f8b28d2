import Foundation

/// The Notifications window: the App Store Server Notifications the store made, oldest first
/// (type and subtype, product, attempts, the last result, the next retry): the newest page,
/// and the older pages ↑ loads past the top; the rows on screen are reloaded whenever the store
/// moves, so attempts show as `storefront serve` makes them.
enum NotificationsView {
    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let rows = state.notifications.rows
        let (frameWidth, frameHeight) = PageView.frame(state)
        // With older ones still to load: how many of all the store made are shown, and the key.
        let older = state.notifications.older
        let count = older.map { s("{} of {}", String(rows.count), String(rows.count + $0)) } ?? String(rows.count)
        let footer =
            older == nil
            ? "↑↓ · Esc"
            : "↑↓ · " + (state.notifications.loadingBefore != nil ? s("Loading…") : s("↑ at the top: older")) + " · Esc"
        let inner = SheetView.window(
            s("Server Notifications") + " (\(count))", width: frameWidth, height: frameHeight,
            footer: footer, into: &screen)
        guard !inner.isEmpty else { return }
        if rows.isEmpty {
            SheetView.line(s("No notifications yet"), inner, 0, style: Theme.secondary, into: &screen)
            return
        }
        // Type, attempts, last result and next retry whole; the product takes what is left
        // (cut first on a narrow terminal: the type says what happened).
        let header = [s("Type"), s("Attempts"), s("Last result"), s("Next retry"), s("Product")]
        let cells = rows.map { row in
            [
                row.kind, String(row.attempts), row.lastResult ?? "-",
                row.nextAttempt.map(Format.clock)
                    ?? (row.delivered ? s("delivered") : row.attempts > 0 ? s("gave up") : "-"),
                row.productID ?? "-",
            ]
        }
        var widths = header.map { DisplayWidth.of($0) }
        for line in cells { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) } }
        let fixed = widths.dropLast().reduce(0, +) + 2 * (widths.count - 1)
        widths[widths.count - 1] = max(1, min(widths[widths.count - 1], inner.width - fixed))
        func joined(_ line: [String]) -> String {
            line.enumerated().map { i, cell in
                i == line.count - 1 ? TextLayout.truncate(cell, to: widths[i]) : TextLayout.pad(cell, to: widths[i])
            }.joined(separator: "  ")
        }
        SheetView.line(joined(header), inner, 0, style: Theme.secondary, into: &screen)
        let selected = state.notifications.selected
        let shown = shownRows(state.notifications, state)
        for i in shown {
            let row = i - shown.lowerBound + 1
            SheetView.line(joined(cells[i]), inner, row, style: rows[i].delivered ? .plain : Theme.error, into: &screen)
            if i == selected { SheetView.highlight(inner, row, into: &screen) }
        }
    }

    /// The indices of the rows on screen: as many as fit under the header line, the selection
    /// kept near the middle (the reducer refreshes these).
    static func shownRows(_ notifications: NotificationsFeature.State, _ state: State) -> Range<Int> {
        let count = notifications.rows.count
        let visible = max(0, PageView.visibleRows(in: state) - 1)
        let top = SheetView.top(selected: notifications.selected, visible: visible, count: count)
        return top..<min(count, top + visible)
    }
}
