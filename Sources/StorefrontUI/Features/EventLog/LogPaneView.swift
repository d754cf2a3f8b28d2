/// The event log pane: the latest entries, newest at the bottom, each wrapped whole (`L`
/// opens the whole log, with each entry's detail).
enum LogPaneView {
    static func render(_ state: State, in rect: Rect, into screen: inout Screen) {
        let s = state.strings
        let inner = screen.box(
            rect, border: .rounded, style: Theme.border, title: s("Event Log") + " (L)", titleStyle: Theme.title)
        guard !inner.isEmpty else { return }
        // From the newest back, as many entries as fit, each wrapped under its time.
        var lines: [(String, CellStyle)] = []
        for entry in state.eventLog.entries.reversed() {
            let time = entry.time.map { Format.clock($0) + " " } ?? ""
            let indent = String(repeating: " ", count: DisplayWidth.of(time))
            let wrapped = TextLayout.wrap(entry.text, width: max(1, inner.width - 2 - indent.count))
            let style = entry.isError ? Theme.error : CellStyle.plain
            let entryLines = wrapped.enumerated().map { ((($0.offset == 0 ? time : indent) + $0.element), style) }
            lines.insert(contentsOf: entryLines, at: 0)
            if lines.count >= inner.height { break }
        }
        for (i, (text, style)) in lines.suffix(inner.height).enumerated() {
            screen.put(text, x: inner.x + 1, y: inner.y + i, style: style, maxWidth: inner.width - 2)
        }
    }
}
