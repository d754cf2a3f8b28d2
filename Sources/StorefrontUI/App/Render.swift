import StoreKitValues

/// Renders the whole storefront for `state` into a screen of `state.width` × `state.height`.
/// Pure: the same state always gives the same screen.
public func render(_ state: State) -> Screen {
    var screen = Screen(width: state.width, height: state.height)
    guard state.fitsMinimumSize else {
        renderTooSmall(state, into: &screen)
        return screen
    }
    let layout = Layout(state: state)
    renderHeader(state, layout.header, into: &screen)
    ProductListView.render(state, in: layout.list, into: &screen)
    if !layout.detail.isEmpty { DescriptionView.render(state, in: layout.detail, into: &screen) }
    if !layout.downloads.isEmpty { DownloadsView.render(state, in: layout.downloads, into: &screen) }
    if !layout.log.isEmpty { LogPaneView.render(state, in: layout.log, into: &screen) }
    renderStatus(state, layout.status, into: &screen)
    renderHints(state, layout.hints, into: &screen)
    if let modal = state.modal {
        let status = (layout.status.y..<layout.status.maxY).map { y in (0..<screen.width).map { screen[$0, y] } }
        renderWindow(modal, state, into: &screen)
        coverStatusBesideWindows(before: status, layout.status, into: &screen)
    }
    return screen
}

/// A window covers what it overlaps: on each status row a window reaches (where drawing the
/// windows changed the row, from their left border to their right one), nothing of the
/// message shows beside it, as its cut words would not read. Rows the windows leave alone,
/// and the panels around a window, stay.
private func coverStatusBesideWindows(before: [[Cell]], _ status: Rect, into screen: inout Screen) {
    for (i, old) in before.enumerated() {
        let y = status.y + i
        guard let left = old.indices.first(where: { screen[$0, y] != old[$0] }),
            let right = old.indices.last(where: { screen[$0, y] != old[$0] })
        else { continue }
        screen.fill(Rect(x: 0, y: y, width: left, height: 1))
        screen.fill(Rect(x: right + 1, y: y, width: screen.width - right - 1, height: 1))
    }
}

private func renderTooSmall(_ state: State, into screen: inout Screen) {
    let s = state.strings
    let text = s(
        "Terminal too small: {}×{} (need at least {}×{})", String(state.width), String(state.height),
        String(State.minimumWidth), String(State.minimumHeight))
    let lines = TextLayout.wrap(text, width: max(1, state.width - 2))
    let top = max(0, (state.height - lines.count) / 2)
    for (i, line) in lines.enumerated() {
        let x = max(0, (state.width - DisplayWidth.of(line)) / 2)
        screen.put(line, x: x, y: top + i, style: Theme.error)
    }
}

/// The title bar: where the app shops, and what waits (approvals, downloads) beside the keys.
private func renderHeader(_ state: State, _ rect: Rect, into screen: inout Screen) {
    let s = state.strings
    screen.fill(rect, with: Cell(" ", style: Theme.bar))
    var x = rect.x + 1
    x += screen.put(" " + s("Storefront") + " ", x: x, y: rect.y, style: Theme.barTitle)
    var right: [String] = []
    let approvals = state.purchases.pending.filter { $0.state == .deferred && $0.error != .interrupted }.count
    if approvals > 0 { right.append("⏳ " + s("{} waiting for approval", String(approvals))) }
    let downloading = state.downloads.active.count
    if downloading > 0 { right.append("⇩ " + s("{} downloading", String(downloading))) }
    if state.menu.isRestoring { right.append("\(Format.spinner(state.tickCount)) " + s("Restoring purchases…")) }
    // The list's keys; under a window every key goes to the window, whose footer names them.
    let keys = state.modal == nil ? "? \(s("Help"))  m \(s("Menu")) " : ""
    let statusText = [right.joined(separator: " · "), keys].filter { !$0.isEmpty }.joined(separator: "  ")
    var left = ""
    if let context = state.context {
        left = " \(context.storefront) · \(context.locale) · \(s("Account")): \(context.account)"
    }
    let room = rect.maxX - x
    let rightWidth = DisplayWidth.of(statusText)
    if DisplayWidth.of(left) + 1 + rightWidth <= room {
        screen.put(left, x: x, y: rect.y, style: Theme.bar)
        screen.put(statusText, x: rect.maxX - rightWidth, y: rect.y, style: Theme.bar)
    } else {
        // Too narrow for both: what waits wins over the account's name.
        let shownRight = rightWidth <= room ? statusText : TextLayout.truncate(statusText, to: room)
        let w = DisplayWidth.of(shownRight)
        screen.put(TextLayout.truncate(left, to: max(0, room - w - 1)), x: x, y: rect.y, style: Theme.bar)
        screen.put(shownRight, x: rect.maxX - w, y: rect.y, style: Theme.bar)
    }
}

/// The status line: the filter field, or the message wrapped whole (on up to three rows; past
/// them, the log has it), or the filter in use.
private func renderStatus(_ state: State, _ rect: Rect, into screen: inout Screen) {
    let s = state.strings
    if state.catalog.isFiltering {
        var x = rect.x + 1
        x += screen.put("/ ", x: x, y: rect.y, style: Theme.key)
        let room = rect.maxX - x - 1
        // The end of a long query, where the cursor is.
        var shown = state.catalog.filter
        while DisplayWidth.of(shown) > room - 1, !shown.isEmpty { shown.removeFirst() }
        x += screen.put(shown, x: x, y: rect.y, maxWidth: room)
        screen.put(" ", x: x, y: rect.y, style: Theme.selected)
        return
    }
    if let message = state.message {
        let style: CellStyle =
            switch message.kind {
            case .info: Theme.busy
            case .success: Theme.success
            case .error: Theme.error
            }
        var lines = Layout.messageLines(state)
        if lines.count > rect.height, rect.height > 0 {
            lines = Array(lines.prefix(rect.height))
            lines[rect.height - 1] = TextLayout.truncate(lines[rect.height - 1] + " …", to: rect.width - 2 - 6) + " (L)"
        }
        for (i, line) in lines.enumerated() {
            screen.put(line, x: rect.x + 1, y: rect.y + i, style: style, maxWidth: rect.width - 2)
        }
        return
    }
    if !state.catalog.filter.isEmpty {
        let text = "\(s("Filter")): \(state.catalog.filter)   Esc ✕"
        screen.put(TextLayout.truncate(text, to: rect.width - 2), x: rect.x + 1, y: rect.y, style: Theme.secondary)
    }
}

/// The keys that work where keys go: the product list's, or the filter field's while one is
/// typed (letters go into the query there). Under a window the bar stays empty: every key goes
/// to the window, whose own footer names them, and the list's keys would not work.
private func renderHints(_ state: State, _ rect: Rect, into screen: inout Screen) {
    let s = state.strings
    screen.fill(rect, with: Cell(" ", style: Theme.bar))
    guard state.modal == nil else { return }
    var hints: [(String, String)]
    if state.catalog.isFiltering {
        hints = [
            ("Enter", s("Keep the filter")), ("Esc", s("Clear the filter")), ("↑↓ PgUp PgDn", s("Move")),
            ("Backspace ^U", s("Delete a character / the query")),
        ]
    } else {
        hints =
            state.storefronts.switchingTo == nil
            ? [("Enter", s("Buy")), ("/", s("Filter")), ("d", s("Details"))] : [("/", s("Filter"))]
        hints += [
            ("m", s("Menu")), ("?", s("Help")), ("q", s("Quit")), ("S", s("Sort")), ("g", s("Group")),
            ("t", s("Transaction Manager")), ("p", s("My Purchases")), ("s", s("Storefront & Language")),
            ("l", s("Log")),
        ]
    }
    var x = rect.x + 1
    for (key, label) in hints {
        let width = DisplayWidth.of(key) + 1 + DisplayWidth.of(label) + 2
        if x + width > rect.maxX { break }
        x += screen.put(key, x: x, y: rect.y, style: Theme.barTitle)
        x += screen.put(" " + label + "  ", x: x, y: rect.y, style: Theme.bar)
    }
}

/// Draws the window `modal` names, and what lies beneath a window stacked over another.
private func renderWindow(_ modal: Modal, _ state: State, into screen: inout Screen) {
    switch modal {
    case .confirm: PurchaseSheetView.confirm(state, into: &screen)
    case .purchase: PurchaseSheetView.progress(state, into: &screen)
    case .menu: MenuView.render(state, into: &screen)
    case .help: HelpView.render(state, into: &screen)
    case .storefronts: StorefrontsView.render(state, into: &screen)
    case .accounts: AccountsView.render(state, into: &screen)
    case .settings: SettingsView.render(state, into: &screen)
    case .transactions: TransactionManagerView.render(state, into: &screen)
    case .purchases: MyPurchasesView.render(state, into: &screen)
    case .cancelSheet:
        MyPurchasesView.render(state, into: &screen)
        CancelSheetView.render(state, into: &screen)
    case .details: DetailsView.render(state, into: &screen)
    case .document(let over):
        if let over { renderWindow(over, state, into: &screen) }
        DocumentView.render(state, into: &screen)
    case .log: LogWindowView.render(state, into: &screen)
    case .notifications: NotificationsView.render(state, into: &screen)
    case .question(let over):
        if let over { renderWindow(over, state, into: &screen) }
        QuestionView.render(state, into: &screen)
    }
}
