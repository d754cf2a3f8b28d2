import Foundation
import StoreKitValues

/// My Purchases: the history (every transaction, with its order ID), consumable balances, and
/// subscriptions, in columns sized by content; Enter shows a transaction whole.
enum MyPurchasesView {
    /// Columns for rows of texts, each as wide as its widest cell; `priorities[i]` says who
    /// gets room first; the `whole` columns (IDs, dates, counts) are never narrower than their
    /// widest cell. The last column is flexible.
    static func columns(_ rows: [[String]], priorities: [Int], whole: Set<Int>) -> [TableColumn] {
        let count = priorities.count
        var widths = [Int](repeating: 0, count: count)
        for row in rows {
            for (i, text) in row.enumerated() where i < count { widths[i] = max(widths[i], DisplayWidth.of(text)) }
        }
        return (0..<count).map { i in
            TableColumn(
                natural: widths[i], minimum: whole.contains(i) ? widths[i] : min(widths[i], 8), priority: priorities[i],
                flexible: i == count - 1)
        }
    }

    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let (tab, selected) = (state.myPurchases.tab, state.myPurchases.selected)
        let footer =
            switch tab {
            case 0: "Tab · Enter \(s("Details")) · Esc"
            case 1: "Tab · c \(s("Consume")) · Esc"
            default: "Tab · c \(s("Cancel subscription")) · r \(s("Renewal")) · Esc"
            }
        let inner = SheetView.window(
            s("My Purchases"), width: min(screen.width - 2, 130), height: screen.height - 4, footer: footer,
            into: &screen)
        guard !inner.isEmpty else { return }
        var x = inner.x + 2
        for (i, name) in [s("History"), s("Balances"), s("Subscriptions")].enumerated() {
            x += screen.put(
                " \(name) ", x: x, y: inner.y, style: i == tab ? Theme.selected.with(.bold) : Theme.secondary,
                maxWidth: max(0, inner.maxX - x))
            x += 1
        }
        var texts: [[String]] = []
        var styles: [CellStyle] = []
        var priorities: [Int] = []
        var whole: Set<Int> = [0]
        switch tab {
        case 0:
            priorities = [0, 2, 5, 4, 1, 3]
            whole = [0, 1, 3, 5]
            for t in state.purchases.transactions {
                let label = historyLabel(t, s, now: state.now, sharedBy: state.purchases.sharedBy[t.transactionID])
                texts.append([
                    t.transactionID, state.purchases.orderIDs[t.transactionID] ?? "", state.name(of: t.productID),
                    "×\(t.quantity)",
                    label.0, Format.minute(t.purchaseDate),
                ])
                styles.append(label.1)
            }
        case 1:
            priorities = [0, 1]
            for row in MyPurchasesFeature.balanceRows(state.purchases) {
                texts.append([state.name(of: row.productID), s("Balance {}", String(row.count))])
                styles.append(Theme.owned)
            }
        default:
            priorities = [0, 1, 2]
            for productID in MyPurchasesFeature.subscriptionRows(state.purchases) {
                guard let status = ProductStatus.subscription(productID, in: state) else { continue }
                texts.append([state.name(of: productID), status.text, renewal(productID, state)])
                styles.append(status.style)
            }
        }
        if texts.isEmpty {
            let empty = [s("No transactions"), s("No balances"), s("No subscriptions")][min(tab, 2)]
            SheetView.line(empty, inner, 2, style: Theme.secondary, indent: 2, into: &screen)
            return
        }
        let table = TableLayout(
            columns: columns(texts, priorities: priorities, whole: whole), width: max(0, inner.width - 3))
        let visible = max(1, inner.height - 2)
        let top = SheetView.top(selected: selected, visible: visible, count: texts.count)
        for (i, row) in texts.enumerated().dropFirst(top).prefix(visible) {
            let y = 2 + i - top
            for placement in table.place(row) where placement.width > 0 {
                screen.put(
                    placement.text, x: inner.x + 2 + placement.x, y: inner.y + y, style: styles[i],
                    maxWidth: placement.width)
            }
            if i == selected { SheetView.highlight(inner, y, into: &screen) }
        }
        if let choice = state.myPurchases.renewal { RenewalChoiceView.render(choice, state, into: &screen) }
    }

    /// What a subscription in a commitment renews into at its end (`Then Up-front plan`,
    /// `Then Basic (Monthly)`, `Then ends`); empty outside a commitment.
    private static func renewal(_ productID: String, _ state: State) -> String {
        guard case .success(let choice) = RenewalChoice.make(for: productID, in: state),
            let subscription = state.purchases.subscriptions.last(where: { $0.productID == productID && !$0.hasEnded })
        else { return "" }
        let s = state.strings
        guard subscription.willAutoRenew else { return s("Then ends") }
        let option = choice.options[choice.current]
        let plan = option.plan.map { $0.hasCommitment ? s("Monthly plan") : s("Up-front plan") }
        guard option.productID != productID else { return s("Then {}", plan ?? "") }
        return s("Then {}", state.name(of: option.productID) + (plan.map { " (\($0))" } ?? ""))
    }

    /// A transaction's state in My Purchases → History: a family member's share says who shares
    /// it (or that sharing ended); a subscription period is upgraded, expired or active; a
    /// restored copy says so; a consumable was purchased, not owned.
    private static func historyLabel(
        _ t: Transaction, _ s: Strings, now: Date?, sharedBy: String?
    ) -> (String, CellStyle) {
        if t.ownershipType == .familyShared {
            if t.revocationDate != nil { return (s("Sharing ended"), Theme.secondary) }
            if let end = t.expiresDate, let now, end <= now { return (s("Expired"), Theme.secondary) }
            return (s("Shared by {}", sharedBy ?? s("Family")), Theme.owned)
        }
        if t.revocationDate != nil { return (s("Refunded"), Theme.secondary) }
        if t.productType == .autoRenewable || t.productType == .nonRenewing {
            if t.isUpgraded { return (s("Upgraded"), Theme.secondary) }
            if let end = t.expiresDate, let now, end <= now { return (s("Expired"), Theme.secondary) }
            if t.offerType == .introductory { return (s("Free trial"), Theme.owned) }
        }
        return TransactionManagerView.stateLabel(t, s)
    }
}
