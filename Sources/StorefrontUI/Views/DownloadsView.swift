import StoreCore

/// One row per download: name, bar, percentage, bytes, rate and time left.
enum DownloadsView {
    static func render(_ state: State, in rect: Rect, into screen: inout Screen) {
        let s = state.strings
        let inner = screen.box(rect, border: .rounded, style: Theme.border,
                               title: s("Downloads") + " (space · x)", titleStyle: Theme.title)
        let open = state.downloads.filter { !$0.state.isTerminal || $0.state == .failed }
        for (i, download) in open.prefix(inner.height).enumerated() {
            row(download, state: state, x: inner.x + 1, y: inner.y + i, width: inner.width - 2, into: &screen)
        }
    }

    static func row(_ d: Download, state: State, x: Int, y: Int, width: Int, into screen: inout Screen) {
        let s = state.strings
        let nameWidth = min(22, width / 4)
        var column = x
        screen.put(TextLayout.pad(state.name(of: d.productID), to: nameWidth), x: column, y: y, style: Theme.title)
        column += nameWidth + 1
        let percent = TextLayout.pad("\(Int((d.fraction * 100).rounded(.down)))%", to: 4, alignRight: true)
        var tail = " \(percent)  \(Format.bytes(d.bytesWritten))/\(Format.bytes(d.totalBytes))"
        switch d.state {
        case .active:
            tail += "  \(Format.rate(d.bytesPerSecond))"
            if let left = d.timeRemaining { tail += "  " + s("{} left", Format.duration(left)) }
        case .paused: tail += "  " + s("paused")
        case .waiting: tail += "  " + s("waiting")
        case .failed: tail += "  " + s("failed") + (d.error.map { ": \($0)" } ?? "")
        case .cancelled: tail += "  " + s("cancelled")
        default: tail += "  " + s("finished")
        }
        let barWidth = max(6, min(40, width - nameWidth - 1 - min(DisplayWidth.of(tail), 44)))
        let barStyle = d.state == .failed ? Theme.error : (d.state == .paused ? Theme.waiting : Theme.bar100)
        screen.progressBar(fraction: d.fraction, x: column, y: y, width: barWidth, style: barStyle, trackStyle: Theme.barTrack)
        column += barWidth
        screen.put(tail, x: column, y: y, style: d.state == .failed ? Theme.error : .plain, maxWidth: x + width - column)
    }
}
