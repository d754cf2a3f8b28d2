/// Accounts: each account's name, ID and place in the family; `●` marks the signed-in one.
enum AccountsView {
    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let rows = state.accounts.rows
        let roles: [AccountRow.Role: String] = [.organizer: s("Organizer"), .member: s("Member")]
        let texts = rows.map { row in
            [row.isSignedIn ? "●" : " ", row.name, row.id, row.role.flatMap { roles[$0] } ?? ""]
        }
        let widths = (0..<4).map { column in texts.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        let width = min(screen.width - 2, max(40, widths.reduce(0, +) + 12))
        let inner = SheetView.window(
            s("Accounts"), width: width, height: min(screen.height - 2, rows.count + 4), footer: "Enter · r · Esc",
            into: &screen)
        guard !inner.isEmpty else { return }
        if rows.isEmpty {
            SheetView.line(s("Loading…"), inner, 0, style: Theme.secondary, indent: 2, into: &screen)
            return
        }
        let table = TableLayout(
            columns: [
                TableColumn(natural: 1, priority: 0),
                TableColumn(natural: widths[1], minimum: 8, priority: 1),
                TableColumn(natural: widths[2], minimum: 8, priority: 2),
                TableColumn(natural: widths[3], priority: 3, flexible: true),
            ], width: max(0, inner.width - 3), gap: 2)
        let visible = max(1, inner.height - 1)
        let top = SheetView.top(selected: state.accounts.selected, visible: visible, count: rows.count)
        for (i, row) in texts.enumerated().dropFirst(top).prefix(visible) {
            let y = i - top
            for placement in table.place(row) where placement.width > 0 {
                screen.put(
                    placement.text, x: inner.x + 2 + placement.x, y: inner.y + y,
                    style: rows[i].isSignedIn ? Theme.owned : .plain, maxWidth: placement.width)
            }
            if i == state.accounts.selected { SheetView.highlight(inner, y, into: &screen) }
        }
    }
}
