/// Every key, by where it works, in a window that scrolls.
enum HelpView {
    /// Every key and what it does, by section (a row with an empty key is a heading).
    static func rows(_ s: Strings) -> [(String, String)] {
        var rows: [(String, String)] = [
            ("", s("Product list")),
            ("↑↓ j k", s("Move")), ("PgUp PgDn ^B ^F", s("Move a page")), ("Home End G", s("First / last product")),
            ("Enter", s("Buy")), ("d", s("Details and prices in every storefront")),
            ("/", s("Filter products as you type (name, ID, type, group)")), ("Esc", s("Clear the filter")),
            ("S", s("Sort: catalog order, name, price, type")), ("g", s("Group: by subscription group, by type, none")),
            ("space", s("Pause/resume download")), ("x", s("Cancel download")),
            ("l", s("Show or hide the event log")), ("m  F2", s("Open the menu")),
            ("i", s("App transaction (signed, verified)")), ("c", s("Redeem an offer code for the product")),
        ]
        rows += MenuItem.allCases.map { (String($0.key), s($0.label)) }
        rows += [
            ("", s("Filter field")),
            ("↑↓ PgUp PgDn", s("Move")), ("Backspace  ^U", s("Delete a character / the query")),
            ("Enter", s("Keep the filter")), ("Esc", s("Clear the filter")),
            ("", s("Confirm Your In-App Purchase")),
            ("Enter y b", s("Buy")), ("− + ← →", s("Quantity (consumables)")),
            ("← → p", s("Billing plan (a subscription sold by several)")), ("Tab ↑↓", s("Promotional offer")),
            ("Esc n", s("Cancel the purchase")),
            ("", s("Transaction Manager")),
            ("a d i", [s("Approve"), s("Decline"), s("Resolve")].joined(separator: " / ")),
            ("f", s("Refund (asks first)")), ("u", s("Reverse refund")), ("x", s("Expire now (asks first)")),
            ("S", s("Stop sharing with the family")),
            ("F", s("The family's accounts: r removes a member (asks first)")),
            ("R", s("The customer asks for a refund")),
            ("A D", s("Approve") + " / " + s("Decline") + " " + s("the refund request")),
            // One key a row; a toggle says what it does again after the slash.
            ("n", s("Renew")), ("c", s("Cancel") + " / " + s("Auto-renew on")),
            ("b", s("Billing issue") + " / " + s("Resolve billing issue")),
            ("p", s("Announce a price increase that needs consent")),
            ("+ -", s("The customer accepts / declines the price increase")),
            ("Enter", s("Show the transaction and its signed payload")),
            ("", s("My Purchases")),
            ("Tab ← →", s("History") + " / " + s("Balances") + " / " + s("Subscriptions")),
            ("c", s("Consume one") + " / " + s("Cancel subscription")),
            ("Enter", s("Show the transaction and its signed payload")),
            ("r", s("Choose what a 12-month commitment renews into")),
            ("", s("Windows")),
            ("↑↓ PgUp PgDn Home End", s("Move or scroll")), ("Enter", s("Show an event log entry whole")),
            ("↑ PgUp Home", s("At the top of Server Notifications: load older ones")),
            ("Esc q", s("Close this window")), ("y n", s("Answer a question")),
            ("^C", s("Quit at once")), ("?  F1", s("Show this help")),
        ]
        return rows
    }

    /// The help's lines at the page's width: headings, then keys beside their wrapped text.
    static func lines(_ state: State) -> [(String, CellStyle)] {
        let s = state.strings
        let rows = rows(s)
        let keyWidth = (rows.map { DisplayWidth.of($0.0) }.max() ?? 10) + 2
        let width = PageView.contentWidth(state)
        var lines: [(String, CellStyle)] = []
        for (key, text) in rows {
            if key.isEmpty {
                if !lines.isEmpty { lines.append(("", .plain)) }
                lines.append((text, Theme.heading))
                continue
            }
            let wrapped = TextLayout.wrap(text, width: max(1, width - keyWidth))
            for (i, part) in wrapped.enumerated() {
                lines.append(
                    (
                        (i == 0 ? TextLayout.pad(key, to: keyWidth) : String(repeating: " ", count: keyWidth)) + part,
                        .plain
                    ))
            }
        }
        return lines
    }

    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        PageView.render(
            s("Keys"), lines: lines(state), scroll: state.help.scroll, footer: "↑↓ PgUp PgDn · Esc", state: state,
            into: &screen)
    }
}
