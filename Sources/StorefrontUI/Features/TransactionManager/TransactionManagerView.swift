import Foundation
import StoreKitValues

/// The Transaction Manager: waiting transactions, purchases and subscriptions, one row each
/// (ID, product, where it stands, the date that matters), with the selected row's keys. A
/// refunded row says so, with its refund's date, and takes one key: u reverses the refund.
enum TransactionManagerView {
    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let selected = state.transactionManager.selected
        let rows = TransactionManagerFeature.rows(state.purchases)
        // The keys of the selected row: a subscription's, or a purchase's.
        var keys: [String]
        if selected < rows.count, rows[selected].revocationDate != nil {
            // A refunded purchase or subscription: only its refund can be undone.
            keys = ["u \(s("Reverse refund"))"]
        } else if selected < rows.count,
            let subscription = TransactionManagerFeature.subscription(for: rows[selected], in: state.purchases)
        {
            let cancel = subscription.willAutoRenew ? s("Cancel") : s("Auto-renew on")
            let failing = subscription.hasBillingIssue || subscription.isInBillingRetry
            let billing = failing ? s("Resolve billing issue") : s("Billing issue")
            // An ended subscription can only be refunded (or bought again).
            keys =
                subscription.hasEnded
                ? ["f \(s("Refund"))"]
                : ["n \(s("Renew"))", "x \(s("Expire"))", "c \(cancel)", "b \(billing)", "f \(s("Refund"))"]
        } else if selected < rows.count, rows[selected].state == .deferred {
            keys = ["a \(s("Approve"))", "d \(s("Decline"))", "i \(s("Resolve"))"]
        } else {
            keys = ["f \(s("Refund"))"]
        }
        if selected < rows.count, rows[selected].revocationDate == nil, rows[selected].ownershipType == .purchased,
            state.catalog.products?.first(where: { $0.id == rows[selected].productID })?.isFamilyShareable == true
        {
            keys.append("S \(s("Stop sharing"))")
        }
        keys += ["Enter \(s("Details"))", "Esc"]
        let width = min(screen.width - 2, 110)
        let height = min(screen.height - 2, max(8, rows.count + 7))
        let inner = SheetView.window(s("Transaction Manager"), width: width, height: height, into: &screen)
        guard !inner.isEmpty else { return }
        SheetView.line(
            s("Waiting transactions, purchases and subscriptions"), inner, 0, style: Theme.secondary, indent: 2,
            into: &screen)
        // The keys on the window's last rows, wrapped whole.
        let keyLines = TextLayout.join(keys, separator: " · ", width: max(1, inner.width - 3))
        for (i, text) in keyLines.enumerated() {
            SheetView.line(text, inner, inner.height - keyLines.count + i, style: Theme.key, indent: 2, into: &screen)
        }
        if rows.isEmpty {
            SheetView.line(s("No transactions"), inner, 2, style: Theme.secondary, indent: 2, into: &screen)
        }
        let visible = max(1, inner.height - 2 - keyLines.count)
        let top = SheetView.top(selected: selected, visible: visible, count: rows.count)
        let texts: [[String]] = rows.map { t in
            let subscription = TransactionManagerFeature.subscription(for: t, in: state.purchases)
            var name = state.name(of: t.productID)
            if t.quantity > 1 { name += " ×\(t.quantity)" }
            if let subscription, !subscription.hasEnded, subscription.nextProductID != t.productID {
                name += " → " + state.name(of: subscription.nextProductID)
            }
            let (label, _, date) = describe(t, subscription, state)
            return [t.transactionID, name, label, date]
        }
        let table = TableLayout(
            columns: MyPurchasesView.columns(texts, priorities: [0, 1, 3, 2], whole: [0, 3]),
            width: max(0, inner.width - 3))
        for (i, t) in rows.enumerated().dropFirst(top).prefix(visible) {
            let row = 2 + i - top
            let (_, style, _) = describe(t, TransactionManagerFeature.subscription(for: t, in: state.purchases), state)
            for placement in table.place(texts[i]) where placement.width > 0 {
                screen.put(
                    placement.text, x: inner.x + 2 + placement.x, y: inner.y + row, style: style,
                    maxWidth: placement.width)
            }
            if i == selected { SheetView.highlight(inner, row, into: &screen) }
        }
    }

    private static func describe(
        _ t: Transaction, _ subscription: ManagedSubscription?, _ state: State
    ) -> (String, CellStyle, String) {
        if let revoked = t.revocationDate {
            return (state.strings("Refunded"), Theme.secondary, Format.minute(revoked))
        }
        if let subscription { return subscriptionLabel(subscription, t, state) }
        let (label, style) = stateLabel(t, state.strings)
        return (label, style, Format.minute(t.purchaseDate))
    }

    /// A subscription's row: where it stands, in its color, and the date that matters next
    /// (the renewal, the end of access, the start of billing retry, the expiry).
    private static func subscriptionLabel(
        _ subscription: ManagedSubscription, _ t: Transaction, _ state: State
    ) -> (String, CellStyle, String) {
        let s = state.strings
        let now = state.now
        switch subscription.phase {
        case .active(let until) where !subscription.willAutoRenew:
            return (s("Auto-renew off, ends"), Theme.waiting, Format.until(until, now: now))
        case .active(let until) where subscription.priceConsent == .declined:
            return (s("Won't renew (price increase declined), ends"), Theme.waiting, Format.until(until, now: now))
        case .active(let until) where subscription.priceConsent == .pending:
            return (s("Price increase awaiting consent, ends"), Theme.waiting, Format.until(until, now: now))
        case .active(let until) where subscription.hasBillingIssue:
            return (s("Billing issue, renews"), Theme.waiting, Format.until(until, now: now))
        case .active(let until) where t.offerType == .introductory:
            return (s("Free trial, renews"), Theme.owned, Format.until(until, now: now))
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

    /// A transaction's state in words: a consumable is purchased (used up, not owned).
    static func stateLabel(_ t: Transaction, _ s: Strings) -> (String, CellStyle) {
        if t.revocationDate != nil { return (s("Refunded"), Theme.secondary) }
        switch t.state {
        case .deferred:
            if t.error == .interrupted { return (s("Interrupted"), Theme.error) }
            return (s("Waiting for approval"), Theme.waiting)
        case .purchased: return (t.productType == .consumable ? s("Purchased") : s("Owned"), Theme.owned)
        case .restored: return (s("Restored"), Theme.owned)
        case .failed: return (s("failed"), Theme.error)
        default: return (t.state.rawValue, .plain)
        }
    }
}
