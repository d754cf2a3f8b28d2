/// A decoded receipt or transaction (`ReceiptFeature.State.document`) in a window that scrolls, every line
/// wrapped whole (a JWS payload's long values included).
enum DocumentView {
    static func lines(_ receipt: ReceiptFeature.State, _ state: State) -> [(String, CellStyle)] {
        let width = PageView.contentWidth(state)
        guard let document = receipt.document else { return [(state.strings("Loading…"), Theme.secondary)] }
        var lines: [(String, CellStyle)] = []
        for line in document.lines {
            if line.isHeading {
                if !lines.isEmpty { lines.append(("", .plain)) }
                lines += PageView.wrapped(state.strings(line.text), Theme.heading, width: width)
            } else {
                // Continuation lines under their first, indented two more.
                let lead = min(line.text.prefix { $0 == " " }.count, width / 2)
                let body = String(line.text.dropFirst(lead))
                for (i, part) in TextLayout.wrap(body, width: max(1, width - lead - 2)).enumerated() {
                    lines.append((String(repeating: " ", count: i == 0 ? lead : lead + 2) + part, .plain))
                }
            }
        }
        return lines
    }

    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let title =
            state.receipt.document.map { s($0.title) + ($0.subject.isEmpty ? "" : " " + $0.subject) } ?? s("Loading…")
        PageView.render(
            title, lines: lines(state.receipt, state), scroll: state.receipt.scroll, footer: "↑↓ PgUp PgDn · Esc",
            state: state, into: &screen)
    }
}
