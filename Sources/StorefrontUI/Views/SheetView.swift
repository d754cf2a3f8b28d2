import Foundation
import StoreCore

/// The windows drawn over the list, each in its own file; this draws the one open and holds
/// what they share: a centered window, a line in it, a highlighted row.
enum SheetView {
    static func render(_ modal: Modal, _ state: State, into screen: inout Screen) {
        switch modal {
        case .confirm(let productID, let quantity, let offer):
            PurchaseSheetView.confirm(productID, quantity: quantity, offer: offer, state, into: &screen)
        case .purchase(let productID): PurchaseSheetView.progress(productID, state, into: &screen)
        case .menu(let selected): menu(selected, state, into: &screen)
        case .help(let scroll): HelpView.render(scroll, state, into: &screen)
        case .storefronts(let storefront, let locale, let column):
            StorefrontsView.render(storefront, locale, column, state, into: &screen)
        case .settings(let selected): SettingsView.render(selected, state, into: &screen)
        case .transactions(let selected): TransactionsView.render(selected, state, into: &screen)
        case .purchases(let tab, let selected): PurchasesView.render(tab, selected, state, into: &screen)
        case .details(let productID, let scroll): DetailsView.render(productID, scroll, state, into: &screen)
        case .document(let scroll, let over):
            if let over { render(over, state, into: &screen) }
            DocumentView.render(scroll, state, into: &screen)
        case .log(let selected, let showsDetail): LogWindowView.render(selected, showsDetail, state, into: &screen)
        case .notifications(let selected): NotificationsView.render(selected, state, into: &screen)
        case .question(let question, let over):
            if let over { render(over, state, into: &screen) }
            QuestionView.render(question, state, into: &screen)
        }
    }

    /// Clears and frames a centered window; returns its inside.
    static func window(
        _ title: String, width: Int, height: Int, footer: String? = nil, into screen: inout Screen
    ) -> Rect {
        let rect = screen.bounds.inset(dx: 1, dy: 1).centered(width: width, height: height)
        screen.fill(rect)
        let inner = screen.box(
            rect, border: .rounded, style: Theme.focusedBorder, title: title, titleStyle: Theme.title)
        if let footer, rect.height > 2 {
            let text = " " + TextLayout.truncate(footer, to: max(0, rect.width - 6)) + " "
            let w = DisplayWidth.of(text)
            screen.put(
                text, x: max(rect.x + 1, rect.maxX - 1 - w - 1), y: rect.maxY - 1, style: Theme.secondary,
                maxWidth: rect.width - 2)
        }
        return inner
    }

    /// Draws one line of a window's inside, cut with `…` only at the window's edge.
    static func line(
        _ text: String, _ inner: Rect, _ row: Int, style: CellStyle = .plain, indent: Int = 1,
        into screen: inout Screen
    ) {
        guard row >= 0, row < inner.height else { return }
        let room = max(0, inner.width - indent - 1)
        screen.put(TextLayout.truncate(text, to: room), x: inner.x + indent, y: inner.y + row, style: style)
    }

    /// Shows a window's row as selected.
    static func highlight(_ inner: Rect, _ row: Int, into screen: inout Screen) {
        guard row >= 0, row < inner.height else { return }
        screen.restyle(Rect(x: inner.x, y: inner.y + row, width: inner.width, height: 1)) {
            $0.attributes.insert(.reverse)
        }
    }

    /// The first row to show so `selected` is on screen in `visible` rows of `count`.
    static func top(selected: Int, visible: Int, count: Int) -> Int {
        max(0, min(selected - visible / 2, count - visible))
    }

    private static func menu(_ selected: Int, _ state: State, into screen: inout Screen) {
        let s = state.strings
        let items = MenuItem.allCases
        let server = state.serverURL.map { s("App Store Server: {}", $0) } ?? s("App Store Server: not running")
        let width = max(items.map { DisplayWidth.of(s($0.label)) }.max() ?? 20, DisplayWidth.of(server) - 5) + 10
        let inner = window(
            s("Menu"), width: max(30, width), height: items.count + 6, footer: "Enter · Esc", into: &screen)
        for (i, item) in items.enumerated() {
            line(String(item.key), inner, 1 + i, style: Theme.key, indent: 2, into: &screen)
            line(s(item.label), inner, 1 + i, indent: 5, into: &screen)
            if i == selected { highlight(inner, 1 + i, into: &screen) }
        }
        line(
            server, inner, items.count + 2, style: state.serverURL == nil ? Theme.secondary : Theme.owned, indent: 2,
            into: &screen)
    }

    /// The help line count at this screen size (the reducer scrolls help with it).
    static func helpLineCount(_ state: State) -> Int {
        HelpView.lines(state).count
    }
}
