/// The event log: the latest store notifications, newest at the bottom.
enum LogView {
    static func render(_ state: State, in rect: Rect, into screen: inout Screen) {
        let s = state.strings
        let inner = screen.box(rect, border: .rounded, style: Theme.border, title: s("Event Log"), titleStyle: Theme.title)
        guard !inner.isEmpty else { return }
        let entries = state.log.suffix(inner.height)
        for (i, entry) in entries.enumerated() {
            var x = inner.x + 1
            if let time = entry.time {
                x += screen.put(Format.clock(time) + " ", x: x, y: inner.y + i, style: Theme.secondary)
            }
            screen.put(entry.text, x: x, y: inner.y + i, style: entry.isError ? Theme.error : .plain,
                       maxWidth: inner.maxX - x)
        }
    }
}
