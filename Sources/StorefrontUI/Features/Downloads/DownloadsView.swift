import Foundation
import StoreKitValues

/// One row per download: name, bar, percentage, bytes, and its state (rate and time left
/// while active). The bar's width depends on the pane's width only, never on the text beside it.
enum DownloadsView {
    /// The downloads the pane shows: those under way or failed, and those that finished or were
    /// cancelled a moment ago (at their last state: 100 %, cancelled).
    static func shown(_ state: State) -> [Download] {
        state.downloads.items.filter {
            !$0.state.isTerminal || $0.state == .failed || state.downloads.settledAt[$0.id] != nil
        }
    }

    static func render(_ state: State, in rect: Rect, into screen: inout Screen) {
        let s = state.strings
        let inner = screen.box(
            rect, border: .rounded, style: Theme.border,
            title: s("Downloads") + " (space · x)", titleStyle: Theme.title)
        let rows = shown(state)
        guard !inner.isEmpty, !rows.isEmpty else { return }
        let table = TableLayout(columns: columns(rows, state, width: inner.width - 2), width: inner.width - 2)
        for (i, download) in rows.prefix(inner.height).enumerated() {
            row(download, state: state, table: table, x: inner.x + 1, y: inner.y + i, into: &screen)
        }
    }

    /// The bar's width in a pane `width` cells wide.
    static func barWidth(_ width: Int) -> Int { max(8, min(30, width / 5)) }

    static func columns(_ rows: [Download], _ state: State, width: Int) -> [TableColumn] {
        let names = rows.map { DisplayWidth.of(state.name(of: $0.productID)) }.max() ?? 0
        let bytes = rows.map { DisplayWidth.of(Format.bytes($0.totalBytes)) * 2 + 1 }.max() ?? 0
        let bar = barWidth(width)
        return [
            TableColumn(natural: names, minimum: min(names, 10), priority: 0),
            TableColumn(natural: bar, priority: 1),
            TableColumn(natural: 4, priority: 1, alignment: .trailing),
            TableColumn(natural: bytes, minimum: 0, priority: 2, alignment: .trailing),
            TableColumn(natural: 30, minimum: 0, priority: 3, flexible: true),
        ]
    }

    static func row(_ d: Download, state: State, table: TableLayout, x: Int, y: Int, into screen: inout Screen) {
        let s = state.strings
        var status: String
        switch d.state {
        case .active:
            status = Format.rate(d.bytesPerSecond)
            if let left = d.timeRemaining { status += " · " + s("{} left", Format.duration(left)) }
        case .paused: status = s("paused")
        case .waiting: status = s("waiting")
        case .failed: status = s("failed") + (d.error.map { ": \($0)" } ?? "")
        case .cancelled: status = s("cancelled")
        default: status = s("finished")
        }
        let bytes = "\(Format.bytes(d.bytesWritten))/\(Format.bytes(d.totalBytes))"
        let texts = [
            state.name(of: d.productID), String(repeating: "█", count: table.widths[1]), Format.percent(d.fraction),
            bytes, status,
        ]
        let placed = table.place(texts)
        let barStyle = d.state == .failed ? Theme.error : (d.state == .paused ? Theme.waiting : Theme.bar100)
        let styles = [Theme.title, barStyle, Theme.title, CellStyle.plain, d.state == .failed ? Theme.error : .plain]
        for (column, placement) in placed.enumerated() where placement.width > 0 {
            if column == 1 {
                screen.progressBar(
                    fraction: d.fraction, x: x + placement.x, y: y, width: placement.width, style: barStyle,
                    trackStyle: Theme.barTrack)
            } else {
                screen.put(placement.text, x: x + placement.x, y: y, style: styles[column], maxWidth: placement.width)
            }
        }
    }
}
