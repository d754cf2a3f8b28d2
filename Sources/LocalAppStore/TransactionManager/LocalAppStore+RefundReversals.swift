import Foundation
import StoreCore

/// Reversed refunds, as the App Store's side of them (what Apple's support does, done by hand):
/// the refunded purchase grants again (`REFUND_REVERSED`). Refund requests and their decisions
/// are in `Offers/LocalAppStore+RefundRequests.swift`.
extension LocalAppStore {
    /// Reverses a refund: the purchase (with what it granted alongside) grants again and goes
    /// back in the queue un-revoked, so the app learns of it and its entitlement returns. A
    /// subscription period the refund ended is active again until its transaction's
    /// `expiresDate`, and renews then as it would have; one whose period has passed since
    /// stays expired.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it was not refunded.
    @discardableResult
    public func reverseRefund(transactionID: String) throws(LocalAppStoreError) -> StoreCore.Transaction {
        let account = configuration.account.id
        let now = configuration.clock.now
        let (restored, changed) = try journal.transact { state throws(LocalAppStoreError) in
            guard let entry = state.entries[transactionID], entry.accountID == account else {
                throw .unknownTransaction(transactionID)
            }
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
            if var stored = state.subscriptionEnded(byRefundOf: entry, now: now) {
                stored.lifecycle.reinstate(until: entry.transaction.expiresDate ?? now)
                records.append(JournalRecord.make(stored))
            }
            return (records, restored)
        }
        announceRevisions(changed)
        subscriptionsChanged()
        return signed([restored])[0]
    }
}

extension JournalState {
    /// The subscription whose current period the refund of `entry` ended (it expired when
    /// the transaction was revoked, with the refund's unknown intent), while that period's
    /// `expiresDate` is still ahead of `now`; nil otherwise.
    func subscriptionEnded(byRefundOf entry: QueueEntry, now: Date) -> StoredSubscription? {
        let t = entry.transaction
        guard let group = t.subscriptionGroupID, let revoked = t.revocationDate, let expires = t.expiresDate,
            expires > now,
            let stored = subscription(accountID: entry.accountID, groupID: group),
            let expiration = stored.lifecycle.expiration, expiration.date == revoked, expiration.intent == .unknown,
            let latest = entries[stored.latestTransactionID],
            sameGrant(as: latest).contains(where: { $0.id == entry.id })
        else { return nil }
        return stored
    }

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
