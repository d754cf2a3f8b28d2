import Foundation
import StoreCore

/// The windows drawn over the list: confirmation, purchase progress, menu, help, storefronts,
/// settings, Transaction Manager and My Purchases.
enum SheetView {
    static func render(_ modal: Modal, _ state: State, into screen: inout Screen) {
        switch modal {
        case .confirm(let productID): confirm(productID, state, into: &screen)
        case .purchase(let productID): purchase(productID, state, into: &screen)
        case .menu(let selected): menu(selected, state, into: &screen)
        case .help: help(state, into: &screen)
        case .storefronts(let storefront, let locale, let column):
            storefronts(storefront, locale, column, state, into: &screen)
        case .settings(let selected): settings(selected, state, into: &screen)
        case .transactions(let selected): transactions(selected, state, into: &screen)
        case .purchases(let tab, let selected): purchases(tab, selected, state, into: &screen)
        }
    }

    /// Clears and frames a centered window; returns its inside.
    private static func window(
        _ title: String, width: Int, height: Int, footer: String? = nil, into screen: inout Screen
    ) -> Rect {
        let rect = screen.bounds.inset(dx: 1, dy: 1).centered(width: width, height: height)
        screen.fill(rect)
        let inner = screen.box(rect, border: .rounded, style: Theme.focusedBorder, title: title, titleStyle: Theme.title)
        if let footer, rect.height > 2 {
            let text = " " + footer + " "
            let w = DisplayWidth.of(text)
            screen.put(text, x: max(rect.x + 1, rect.maxX - 1 - w - 1), y: rect.maxY - 1, style: Theme.secondary,
                       maxWidth: rect.width - 2)
        }
        return inner
    }

    private static func line(
        _ text: String, _ inner: Rect, _ row: Int, style: CellStyle = .plain, indent: Int = 1,
        into screen: inout Screen
    ) {
        guard row >= 0, row < inner.height else { return }
        screen.put(text, x: inner.x + indent, y: inner.y + row, style: style, maxWidth: inner.width - indent - 1)
    }

    private static func highlight(_ inner: Rect, _ row: Int, into screen: inout Screen) {
        guard row >= 0, row < inner.height else { return }
        screen.restyle(Rect(x: inner.x, y: inner.y + row, width: inner.width, height: 1)) { $0.attributes.insert(.reverse) }
    }

    // MARK: - Buying

    private static func confirm(_ productID: String, _ state: State, into screen: inout Screen) {
        let s = state.strings
        guard let product = state.product(productID) else { return }
        let inner = window(s("Confirm Your In-App Purchase"), width: 58, height: 12, into: &screen)
        line(product.displayName, inner, 1, style: Theme.title, indent: 2, into: &screen)
        line(s.typeName(product.type), inner, 2, style: Theme.secondary, indent: 2, into: &screen)
        let labels = [s("Price"), s("Account"), s("Storefront")]
        let labelWidth = labels.map { DisplayWidth.of($0) }.max() ?? 8
        let values = [product.displayPrice, state.context?.account ?? "—", state.context.map { "\($0.storefront) · \($0.locale)" } ?? "—"]
        for (i, (label, value)) in zip(labels, values).enumerated() {
            line(TextLayout.pad(label, to: labelWidth) + "  " + value, inner, 4 + i,
                 style: i == 0 ? Theme.price.with(.bold) : .plain, indent: 2, into: &screen)
        }
        // The offer this purchase will take, as the App Store's sheet shows it.
        if let intro = product.subscription?.introductoryOffer, state.isEligibleForIntroOffer(product) {
            line(DetailView.describe(intro, s), inner, 8, style: Theme.owned, indent: 2, into: &screen)
        }
        let prompt = s("Enter: Buy   Esc: Cancel")
        line(prompt, inner, inner.height - 1, style: Theme.key, indent: max(1, (inner.width - DisplayWidth.of(prompt)) / 2),
             into: &screen)
    }

    private static func purchase(_ productID: String, _ state: State, into screen: inout Screen) {
        let s = state.strings
        let name = state.name(of: productID)
        let flow = state.flows[productID] ?? PurchaseFlow(productID: productID, phase: .done)
        let phases = flow.phases
        let inner = window(name, width: 58, height: phases.count + 7, footer: "Esc", into: &screen)
        for (i, phase) in phases.enumerated() {
            let (mark, style): (String, CellStyle) =
                phase < flow.phase || flow.phase == .done ? ("✓", Theme.owned)
                : phase == flow.phase ? (String(Format.spinner(state.tickCount)), Theme.busy)
                : ("·", Theme.secondary)
            line(mark + " " + s(phase.label), inner, 1 + i, style: style, indent: 3, into: &screen)
        }
        var fraction = flow.fraction
        if flow.phase == .downloading,
           let download = state.downloads.last(where: { $0.productID == productID }) {
            let steps = Double(max(1, phases.count - 1))
            fraction = (Double(phases.firstIndex(of: .downloading) ?? 0) + download.fraction) / steps
        }
        let barWidth = inner.width - 10
        let y = inner.y + phases.count + 2
        screen.progressBar(fraction: fraction, x: inner.x + 3, y: y, width: barWidth, style: Theme.bar100, trackStyle: Theme.barTrack)
        screen.put(TextLayout.pad("\(Int((fraction * 100).rounded(.down)))%", to: 5, alignRight: true),
                   x: inner.x + 3 + barWidth, y: y, style: Theme.title)
    }

    // MARK: - Menu and help

    private static func menu(_ selected: Int, _ state: State, into screen: inout Screen) {
        let s = state.strings
        let items = MenuItem.allCases
        let width = (items.map { DisplayWidth.of(s($0.label)) }.max() ?? 20) + 10
        let inner = window(s("Menu"), width: max(30, width), height: items.count + 4, footer: "Enter · Esc", into: &screen)
        for (i, item) in items.enumerated() {
            line(String(item.key), inner, 1 + i, style: Theme.key, indent: 2, into: &screen)
            line(s(item.label), inner, 1 + i, indent: 5, into: &screen)
            if i == selected { highlight(inner, 1 + i, into: &screen) }
        }
    }

    /// Every key, by where it works.
    static func helpRows(_ s: Strings) -> [(String, String)] {
        var rows: [(String, String)] = [
            ("↑↓ jk PgUp PgDn Home End", s("Move")),
            ("Enter", s("Buy")), ("/", s("Filter products as you type")),
            ("Esc", s("Close this window")), ("m  F2", s("Open the menu")),
            ("g", s("Group by type / subscription group")), ("l", s("Show or hide the event log")),
            ("space  x", s("Pause/resume download") + " · " + s("Cancel download")),
        ]
        rows += MenuItem.allCases.map { (String($0.key), s($0.label)) }
        rows += [
            ("t → a d f i", [s("Approve"), s("Decline"), s("Refund"), s("Resolve")].joined(separator: " / ")),
            ("t → n x c b", [s("Renew"), s("Expire"), s("Cancel"), s("Billing issue")].joined(separator: " / ")),
            ("p → Tab c", s("History") + " / " + s("Balances") + " / " + s("Subscriptions") + " · " + s("Consume")),
            ("?  F1", s("Show this help")),
        ]
        return rows
    }

    private static func help(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let rows = helpRows(s)
        let inner = window(s("Keys"), width: 76, height: rows.count + 3, footer: "Esc", into: &screen)
        for (i, (key, text)) in rows.enumerated() {
            line(key, inner, 1 + i, style: Theme.key, indent: 2, into: &screen)
            line(text, inner, 1 + i, indent: 28, into: &screen)
        }
    }

    // MARK: - Storefront & Language

    private static func storefronts(_ selected: Int, _ localeSelected: Int, _ column: Int, _ state: State, into screen: inout Screen) {
        let s = state.strings
        let options = state.context?.storefronts ?? []
        let locales = state.context?.locales ?? []
        let height = min(screen.height - 2, max(options.count, locales.count) + 5)
        let inner = window(s("Storefront & Language"), width: 60, height: height, footer: "A–Z · Tab · Enter · Esc", into: &screen)
        let visible = max(1, inner.height - 3)
        if selected < options.count {
            let choice = locales.indices.contains(localeSelected) ? locales[localeSelected] : options[selected].defaultLocale
            line("→ \(options[selected].code) · \(choice)", inner, inner.height - 1, style: Theme.key, indent: 2, into: &screen)
        }
        let top = max(0, min(selected - visible / 2, options.count - visible))
        line(s("Storefront"), inner, 0, style: column == 0 ? Theme.heading : Theme.secondary, indent: 2, into: &screen)
        line(s("Language"), inner, 0, style: column == 1 ? Theme.heading : Theme.secondary, indent: 42, into: &screen)
        for (i, option) in options.enumerated().dropFirst(top).prefix(visible) {
            let row = 1 + i - top
            let current = option.code == state.context?.storefront ? "●" : " "
            let text = "\(current) \(option.code)  \(TextLayout.pad(TextLayout.truncate(option.name, to: 20), to: 20)) \(option.currencyCode)"
            let style: CellStyle = i == selected ? (column == 0 ? Theme.selected : Theme.title) : .plain
            screen.put(TextLayout.pad(text, to: 38), x: inner.x + 1, y: inner.y + row, style: style)
        }
        let localeTop = max(0, min(localeSelected - visible / 2, locales.count - visible))
        for (i, locale) in locales.enumerated().dropFirst(localeTop).prefix(visible) {
            let row = 1 + i - localeTop
            let current = locale == state.context?.locale ? "●" : " "
            let style: CellStyle = i == localeSelected ? (column == 1 ? Theme.selected : Theme.title) : .plain
            screen.put(TextLayout.pad("\(current) \(locale)", to: 14), x: inner.x + 41, y: inner.y + row, style: style)
        }
    }

    // MARK: - Store Settings

    private static func settings(_ selected: Int, _ state: State, into screen: inout Screen) {
        let s = state.strings
        let inner = window(s("Store Settings"), width: min(screen.width - 2, 72), height: max(5, state.settings.count + 4),
                           footer: "←→ Enter · Esc", into: &screen)
        if state.settings.isEmpty { line(s("Loading…"), inner, 1, style: Theme.secondary, indent: 2, into: &screen) }
        for (i, setting) in state.settings.enumerated() {
            let value = s(state.displayValue(setting.value))
            line(TextLayout.pad(s(setting.label), to: 34), inner, 1 + i, indent: 2, into: &screen)
            line("◂ " + value + " ▸", inner, 1 + i, style: setting.value == "on" ? Theme.owned : Theme.price, indent: 38, into: &screen)
            if i == selected { highlight(inner, 1 + i, into: &screen) }
        }
    }

    // MARK: - Transaction Manager

    private static func transactions(_ selected: Int, _ state: State, into screen: inout Screen) {
        let s = state.strings
        let rows = state.managedTransactions
        // The keys of the selected row: a subscription's, or a purchase's.
        let footer: String
        if selected < rows.count, let subscription = state.managedSubscription(for: rows[selected]) {
            let cancel = subscription.willAutoRenew ? s("Cancel") : s("Auto-renew on")
            let failing = subscription.hasBillingIssue || subscription.isInBillingRetry
            let billing = failing ? s("Resolve billing issue") : s("Billing issue")
            // An ended subscription can only be refunded (or bought again).
            footer = subscription.hasEnded
                ? "f \(s("Refund")) · Esc"
                : "n \(s("Renew")) · x \(s("Expire")) · c \(cancel) · b \(billing) · f \(s("Refund")) · Esc"
        } else {
            footer = "a \(s("Approve")) · d \(s("Decline")) · f \(s("Refund")) · i \(s("Resolve")) · Esc"
        }
        let height = min(screen.height - 2, max(6, rows.count + 5))
        let inner = window(s("Transaction Manager"), width: min(screen.width - 2, 90), height: height, footer: footer, into: &screen)
        line(s("Waiting transactions, purchases and subscriptions"), inner, 0, style: Theme.secondary, indent: 2, into: &screen)
        if rows.isEmpty { line(s("No transactions"), inner, 2, style: Theme.secondary, indent: 2, into: &screen) }
        let visible = max(1, inner.height - 2)
        let top = max(0, min(selected - visible / 2, rows.count - visible))
        // Columns: ID, product, state, date; the product name gives way on a narrow terminal.
        let idWidth = min(20, max(12, (rows.map(\.transactionID.count).max() ?? 0) + 2))
        let nameWidth = max(12, min(26, inner.width - 3 - idWidth - 22 - 19))
        for (i, t) in rows.enumerated().dropFirst(top).prefix(visible) {
            let row = 2 + i - top
            let subscription = state.managedSubscription(for: t)
            let (label, style, date) = subscription.map { subscriptionLabel($0, s, now: state.now) }
                ?? { let (label, style) = stateLabel(t, s); return (label, style, Format.minute(t.purchaseDate)) }()
            var name = state.name(of: t.productID)
            if let subscription, !subscription.hasEnded, subscription.nextProductID != t.productID {
                name += " → " + state.name(of: subscription.nextProductID)
            }
            let text = TextLayout.pad(t.transactionID, to: idWidth) + TextLayout.pad(TextLayout.truncate(name, to: nameWidth - 1), to: nameWidth)
                + TextLayout.pad(label, to: 22) + date
            line(text, inner, row, style: style, indent: 2, into: &screen)
            if i == selected { highlight(inner, row, into: &screen) }
        }
    }

    /// A subscription's row: where it stands, in its color, and the date that matters next
    /// (the renewal, the end of access, the start of billing retry, the expiry).
    private static func subscriptionLabel(_ subscription: ManagedSubscription, _ s: Strings, now: Date?) -> (String, CellStyle, String) {
        switch subscription.phase {
        case .active(let until) where !subscription.willAutoRenew:
            return (s("Auto-renew off, ends"), Theme.waiting, Format.until(until, now: now))
        case .active(let until) where subscription.hasBillingIssue:
            return (s("Billing issue, renews"), Theme.waiting, Format.until(until, now: now))
        case .active(let until):
            return (s("Renews"), Theme.owned, Format.until(until, now: now))
        case .gracePeriod(let until):
            return (s("Grace period until"), Theme.waiting, Format.until(until, now: now))
        case .billingRetry(let since):
            return (s("Billing retry since"), Theme.error, Format.until(since, now: now))
        case .expired(let at):
            return (s("Expired"), Theme.secondary, Format.until(at, now: now))
        }
    }

    /// A transaction's state in My Purchases → History: a subscription period is upgraded,
    /// expired or active; a restored copy says so.
    private static func historyLabel(_ t: Transaction, _ s: Strings, now: Date?) -> (String, CellStyle) {
        if t.revocationDate != nil { return (s("Refunded"), Theme.secondary) }
        if t.productType == .autoRenewable || t.productType == .nonRenewing {
            if t.isUpgraded { return (s("Upgraded"), Theme.secondary) }
            if let end = t.expiresDate, let now, end <= now { return (s("Expired"), Theme.secondary) }
        }
        if t.state == .restored { return (s("Restored"), Theme.owned) }
        return stateLabel(t, s)
    }

    private static func stateLabel(_ t: Transaction, _ s: Strings) -> (String, CellStyle) {
        if t.revocationDate != nil { return (s("Refunded"), Theme.secondary) }
        switch t.state {
        case .deferred:
            if t.error == .interrupted { return (s("Interrupted"), Theme.error) }
            return (s("Waiting for approval"), Theme.waiting)
        case .purchased: return (s("Owned"), Theme.owned)
        case .restored: return (s("Restore Purchases"), Theme.owned)
        case .failed: return (s("failed"), Theme.error)
        default: return (t.state.rawValue, .plain)
        }
    }

    // MARK: - My Purchases

    private static func purchases(_ tab: Int, _ selected: Int, _ state: State, into screen: inout Screen) {
        let s = state.strings
        let footer = tab == 1 ? "Tab · c \(s("Consume")) · Esc" : "Tab · Esc"
        let inner = window(s("My Purchases"), width: min(screen.width - 2, 90), height: screen.height - 4, footer: footer,
                           into: &screen)
        var x = inner.x + 2
        for (i, name) in [s("History"), s("Balances"), s("Subscriptions")].enumerated() {
            x += screen.put(" \(name) ", x: x, y: inner.y, style: i == tab ? Theme.selected.with(.bold) : Theme.secondary)
            x += 1
        }
        var texts: [(String, CellStyle)] = []
        switch tab {
        case 0:
            let idWidth = min(20, max(12, (state.purchases.transactions.map(\.transactionID.count).max() ?? 0) + 2))
            texts = state.purchases.transactions.map { t in
                let label = historyLabel(t, s, now: state.now)
                return (TextLayout.pad(t.transactionID, to: idWidth) + TextLayout.pad(TextLayout.truncate(state.name(of: t.productID), to: 25), to: 26)
                        + TextLayout.pad("×\(t.quantity)", to: 5) + TextLayout.pad(label.0, to: 16) + Format.minute(t.purchaseDate), label.1)
            }
        case 1:
            texts = state.balanceRows.map { (TextLayout.pad(state.name(of: $0.productID), to: 34) + s("Balance {}", String($0.count)), Theme.owned) }
        default:
            texts = state.subscriptionRows.compactMap { productID in
                ProductStatus.subscription(productID, in: state).map { (TextLayout.pad(state.name(of: productID), to: 34) + $0.text, $0.style) }
            }
        }
        if texts.isEmpty {
            let empty = [s("No transactions"), s("No balances"), s("No subscriptions")][min(tab, 2)]
            line(empty, inner, 2, style: Theme.secondary, indent: 2, into: &screen)
        }
        let visible = max(1, inner.height - 2)
        let top = max(0, min(selected - visible / 2, texts.count - visible))
        for (i, (text, style)) in texts.enumerated().dropFirst(top).prefix(visible) {
            let row = 2 + i - top
            line(text, inner, row, style: style, indent: 2, into: &screen)
            if i == selected { highlight(inner, row, into: &screen) }
        }
    }
}
