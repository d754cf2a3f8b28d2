import StoreCore

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
    if !layout.detail.isEmpty { DetailView.render(state, in: layout.detail, into: &screen) }
    if !layout.downloads.isEmpty { DownloadsView.render(state, in: layout.downloads, into: &screen) }
    if !layout.log.isEmpty { LogView.render(state, in: layout.log, into: &screen) }
    renderStatus(state, layout.status, into: &screen)
    renderHints(state, layout.hints, into: &screen)
    if let modal = state.modal { SheetView.render(modal, state, into: &screen) }
    return screen
}

private func renderTooSmall(_ state: State, into screen: inout Screen) {
    let s = state.strings
    let text = s("Terminal too small: {}×{} (need at least {}×{})", String(state.width), String(state.height),
                 String(State.minimumWidth), String(State.minimumHeight))
    let lines = TextLayout.wrap(text, width: max(1, state.width - 2))
    let top = max(0, (state.height - lines.count) / 2)
    for (i, line) in lines.enumerated() {
        let x = max(0, (state.width - DisplayWidth.of(line)) / 2)
        screen.put(line, x: x, y: top + i, style: Theme.error)
    }
}

private func renderHeader(_ state: State, _ rect: Rect, into screen: inout Screen) {
    let s = state.strings
    screen.fill(rect, with: Cell(" ", style: Theme.bar))
    var x = rect.x + 1
    x += screen.put(" " + s("Storefront") + " ", x: x, y: rect.y, style: Theme.barTitle)
    if let context = state.context {
        let where_ = " \(context.storefront) · \(context.locale) · \(s("Account")): \(context.account)"
        x += screen.put(where_, x: x, y: rect.y, style: Theme.bar, maxWidth: rect.maxX - x)
    }
    if state.isRestoring {
        x += screen.put("  \(Format.spinner(state.tickCount)) " + s("Restoring purchases…"), x: x, y: rect.y,
                        style: Theme.bar, maxWidth: rect.maxX - x)
    }
    let right = "? \(s("Help"))  m \(s("Menu")) "
    let rightWidth = DisplayWidth.of(right)
    if rect.maxX - rightWidth > x + 1 {
        screen.put(right, x: rect.maxX - rightWidth, y: rect.y, style: Theme.bar)
    }
}

private func renderStatus(_ state: State, _ rect: Rect, into screen: inout Screen) {
    let s = state.strings
    if state.isFiltering {
        var x = rect.x + 1
        x += screen.put("/ ", x: x, y: rect.y, style: Theme.key)
        x += screen.put(state.filter, x: x, y: rect.y, maxWidth: rect.maxX - x - 1)
        screen.put(" ", x: x, y: rect.y, style: Theme.selected)
        return
    }
    if let message = state.message {
        let style: CellStyle = switch message.kind {
        case .info: Theme.busy
        case .success: Theme.success
        case .error: Theme.error
        }
        screen.put(message.text, x: rect.x + 1, y: rect.y, style: style, maxWidth: rect.width - 2)
        return
    }
    if !state.filter.isEmpty {
        screen.put("\(s("Filter")): \(state.filter)   Esc ✕", x: rect.x + 1, y: rect.y, style: Theme.secondary, maxWidth: rect.width - 2)
    }
}

private func renderHints(_ state: State, _ rect: Rect, into screen: inout Screen) {
    let s = state.strings
    screen.fill(rect, with: Cell(" ", style: Theme.bar))
    let hints: [(String, String)] = [
        ("Enter", s("Buy")), ("/", s("Filter")), ("m", s("Menu")), ("?", s("Help")), ("q", s("Quit")),
        ("r", s("Restore Purchases")), ("s", s("Storefront & Language")), ("p", s("My Purchases")), ("l", s("Log")),
    ]
    var x = rect.x + 1
    for (key, label) in hints {
        let width = DisplayWidth.of(key) + 1 + DisplayWidth.of(label) + 2
        if x + width > rect.maxX { break }
        x += screen.put(key, x: x, y: rect.y, style: Theme.barTitle)
        x += screen.put(" " + label + "  ", x: x, y: rect.y, style: Theme.bar)
    }
}
