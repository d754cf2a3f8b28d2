/// The whole event log (the last `EventLogFeature.limit` entries), newest last, one line each; Enter
/// shows the selected entry whole.
enum LogWindowView {
    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let log = state.eventLog.entries
        let (selected, showsDetail) = (state.eventLog.selected, state.eventLog.showsDetail)
        let width = PageView.contentWidth(state)
        if showsDetail, selected < log.count {
            let entry = log[selected]
            var lines: [(String, CellStyle)] = []
            if let time = entry.time {
                lines.append((Format.minute(time) + ":" + String(Format.clock(time).suffix(2)), Theme.secondary))
            }
            lines += PageView.wrapped(entry.text, entry.isError ? Theme.error : .plain, width: width)
            PageView.render(s("Event Log"), lines: lines, scroll: 0, footer: "Esc", state: state, into: &screen)
            return
        }
        let (frameWidth, frameHeight) = PageView.frame(state)
        let inner = SheetView.window(
            s("Event Log") + " (\(log.count))", width: frameWidth, height: frameHeight,
            footer: "↑↓ · Enter \(s("Details")) · Esc", into: &screen)
        guard !inner.isEmpty else { return }
        if log.isEmpty {
            SheetView.line(s("Nothing happened yet"), inner, 0, style: Theme.secondary, into: &screen)
        }
        let top = SheetView.top(selected: selected, visible: inner.height, count: log.count)
        for (i, entry) in log.enumerated().dropFirst(top).prefix(inner.height) {
            let row = i - top
            let time = entry.time.map { Format.clock($0) + " " } ?? ""
            // One line an entry here; a cut one says so, and Enter shows it whole.
            SheetView.line(time + entry.text, inner, row, style: entry.isError ? Theme.error : .plain, into: &screen)
            if i == selected { SheetView.highlight(inner, row, into: &screen) }
        }
    }
}
