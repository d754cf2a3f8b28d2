import Foundation
import StoreKitValues

extension TransactionManagerFeature {
    /// The rows of the Transaction Manager: transactions waiting for a decision, then the
    /// account's purchases, refunded ones included (their refund can be reversed), newest first
    /// by original purchase, so a renewal does not move its row. An auto-renewable subscription
    /// is one row, its latest transaction, which stands for the subscription. Restored
    /// transactions count as purchases: after a restore into a fresh app they are all the app has.
    static func rows(_ purchases: PurchasesSnapshot) -> [Transaction] {
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
    static func subscription(for transaction: Transaction, in purchases: PurchasesSnapshot) -> ManagedSubscription? {
        guard transaction.productType == .autoRenewable else { return nil }
        return purchases.subscriptions.first { $0.originalTransactionID == transaction.originalTransactionID }
    }
}
