import Foundation
import StoreCore

/// The Transaction Manager: its rows and its keys.
extension State {
    /// The rows of the Transaction Manager: transactions waiting for a decision, then the
    /// account's purchases, refunded ones included (their refund can be reversed), newest first
    /// by original purchase, so a renewal does not move its row. An auto-renewable subscription
    /// is one row, its latest transaction, which stands for the subscription. Restored
    /// transactions count as purchases: after a restore into a fresh app they are all the app has.
    var managedTransactions: [Transaction] {
        let pendingIDs = Set(purchases.pending.map(\.transactionID))
        var subscriptionsSeen: Set<String> = []
        var originalsSeen: Set<String> = []
        // History is newest first, so the first transaction of a subscription is its latest.
        let settled = purchases.transactions.filter { t in
            guard !pendingIDs.contains(t.transactionID) else { return false }
            // The newest transaction of a subscription stands for it (refunded, it shows so);
            // a restore copies a purchase the app may already hold: one row per purchase.
            guard t.state == .purchased || t.state == .restored else { return false }
            return t.productType == .autoRenewable
                ? subscriptionsSeen.insert(t.originalTransactionID).inserted
                : originalsSeen.insert(t.originalTransactionID).inserted
        }
        return purchases.pending
            + settled.sorted {
                ($0.originalPurchaseDate, $0.originalTransactionID) > (
                    $1.originalPurchaseDate, $1.originalTransactionID
                )
            }
    }

    /// The subscription a transaction belongs to, as the store runs it.
    func managedSubscription(for transaction: Transaction) -> ManagedSubscription? {
        guard transaction.productType == .autoRenewable else { return nil }
        return purchases.subscriptions.first { $0.originalTransactionID == transaction.originalTransactionID }
    }

    /// The identifier the store knows a transaction by: a restored copy's original (the store
    /// refunds and approves what it sold, not the app's copy of it).
    private func storeID(_ transaction: Transaction) -> String {
        transaction.state == .restored ? transaction.originalTransactionID : transaction.transactionID
    }

    /// The keys a refunded row takes besides `u`: the others act on a purchase that grants.
    private static let keysForGrantingRows: Set<Key> = Set(
        ["a", "d", "i", "R", "A", "D", "f", "n", "x", "c", "b", "p", "+", "-"].map { Key.character(Character($0)) })

    mutating func handleTransactions(_ key: Key, selected: Int) -> [Effect] {
        let rows = managedTransactions
        let over = Modal.transactions(selected: selected)
        // A refunded row: u reverses the refund; what acts on a granting purchase says so.
        if selected < rows.count, rows[selected].revocationDate != nil, Self.keysForGrantingRows.contains(key) {
            show(strings("{} was refunded: u reverses the refund", name(of: rows[selected].productID)), kind: .error)
            return []
        }
        switch key {
        case .escape, .character("q"), .character("t"): modal = nil
        case .character("u"):
            guard selected < rows.count else { return [] }
            guard rows[selected].revocationDate != nil else {
                show(strings("{} is not refunded", name(of: rows[selected].productID)), kind: .error)
                return []
            }
            return [.transactionCommand(.reverseRefund, transactionID: storeID(rows[selected]))]
        case .character("a"), .character("d"), .character("i"):
            guard selected < rows.count else { return [] }
            let id = storeID(rows[selected])
            let command: TransactionCommand =
                switch key {
                case .character("a"): .approve
                case .character("d"): .decline
                default: .resolve
                }
            return [.transactionCommand(command, transactionID: id)]
        case .character("R"), .character("A"), .character("D"):
            guard selected < rows.count else { return [] }
            let id = storeID(rows[selected])
            let command: TransactionCommand =
                key == .character("R") ? .requestRefund : .decideRefund(approve: key == .character("A"))
            return [.transactionCommand(command, transactionID: id)]
        case .character("f"):
            guard selected < rows.count else { return [] }
            modal = .question(
                .refund(transactionID: storeID(rows[selected]), productID: rows[selected].productID), over: over)
        case .enter:
            guard selected < rows.count else { return [] }
            document = nil
            modal = .document(scroll: 0, over: over)
            return [.loadTransaction(transactionID: rows[selected].transactionID)]
        case .character("n"), .character("x"), .character("c"), .character("b"), .character("p"), .character("+"),
            .character("-"):
            guard selected < rows.count else { return [] }
            let transaction = rows[selected]
            guard let subscription = managedSubscription(for: transaction) else {
                show(strings("{} is not an auto-renewable subscription", name(of: transaction.productID)), kind: .error)
                return []
            }
            let id = storeID(transaction)
            switch key {
            case .character("n"): return [.subscriptionCommand(.renew, transactionID: id)]
            case .character("x"):
                modal = .question(.expire(transactionID: id, productID: transaction.productID), over: over)
                return []
            case .character("c"):
                return [.subscriptionCommand(.setAutoRenew(on: !subscription.willAutoRenew), transactionID: id)]
            case .character("p"): return [.transactionCommand(.priceIncrease(accept: nil), transactionID: id)]
            case .character("+"), .character("-"):
                return [.transactionCommand(.priceIncrease(accept: key == .character("+")), transactionID: id)]
            default:
                let failing = subscription.hasBillingIssue || subscription.isInBillingRetry
                return [.subscriptionCommand(.setBillingIssue(on: !failing), transactionID: id)]
            }
        default:
            if let next = moved(selected, by: key, count: rows.count, page: max(1, height - 10)) {
                modal = .transactions(selected: next)
            }
        }
        return []
    }
}
