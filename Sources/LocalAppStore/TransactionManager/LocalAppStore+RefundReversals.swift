import Foundation
import StoreCore

/// Reversed refunds, as the App Store's side of them (what Apple's support does, done by hand):
/// the refunded purchase grants again (`REFUND_REVERSED`). Refund requests and their decisions
/// are in `Offers/LocalAppStore+RefundRequests.swift`.
extension LocalAppStore {
    /// Reverses a refund: the purchase (with what it granted alongside) grants again and goes
    /// back in the queue, so the app learns of it. A subscription the refund ended stays ended.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it was not refunded.
    @discardableResult
    public func reverseRefund(transactionID: String) throws(LocalAppStoreError) -> StoreCore.Transaction {
        let account = configuration.account.id
        let (restored, changed) = try journal.transact { state throws(LocalAppStoreError) in
            guard let entry = state.entries[transactionID], entry.accountID == account else { throw .unknownTransaction(transactionID) }
            guard entry.transaction.revocationDate != nil else {
                throw .notPending(transactionID: transactionID, state: "not refunded", expected: "a refunded purchase")
            }
            var records: [JournalRecord] = []
            var restored = entry.transaction
            let revoked = state.entries(sameGrantRevokedAs: entry)
            for var granted in revoked {
                granted.transaction.revocationDate = nil
                granted.transaction.revocationReason = nil
                granted.finished = false
                records.append(JournalRecord.make(granted))
                if granted.id == entry.id { restored = granted.transaction }
            }
            return (records, restored)
        }
        announceRevisions(changed)
        return signed([restored])[0]
    }
}

extension JournalState {
    /// The account's revoked transactions that granted with `entry` (its restored copies, and
    /// for a subscription its period's), `entry` included.
    func entries(sameGrantRevokedAs entry: QueueEntry) -> [QueueEntry] {
        let t = entry.transaction
        return orderedEntries.filter {
            $0.accountID == entry.accountID && $0.transaction.originalTransactionID == t.originalTransactionID
                && $0.transaction.revocationDate == t.revocationDate
                && (t.webOrderLineItemID == nil || $0.transaction.webOrderLineItemID == t.webOrderLineItemID)
        }
    }
}
