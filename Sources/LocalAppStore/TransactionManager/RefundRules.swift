import Foundation
import StoreCore

/// What a refund and its reversal do, as journal records: pure functions of the journal's
/// state (read under the write lock), which the Transaction Manager and an approved refund
/// request (`RefundRequests`) journal.
///
/// What a purchase granted is refunded whole: its restored copies, and for a subscription the
/// period's other transactions (a downgrade's answer). Each goes back in the queue, so an app
/// that is not running gets the refund at its next start. A refund of the current period ends
/// the subscription; a reversal gives back what the refund took (Apple's `REFUND_REVERSED`).
enum RefundRules {
    /// The records that refund `transactionID` of `accountID` now with `reason`, and its
    /// refunded transaction.
    /// - Throws: `.unknownTransaction` when the account was not charged for it and it is not
    ///   purchased or restored; `.alreadyRefunded`.
    static func refund(
        _ transactionID: String, accountID account: String, reason: Int, now: Date, in state: JournalState
    ) throws(LocalAppStoreError) -> (records: [JournalRecord], result: StoreCore.Transaction) {
        guard let entry = state.entries[transactionID], entry.accountID == account,
            entry.charged || entry.transaction.state == .purchased || entry.transaction.state == .restored
        else { throw .unknownTransaction(transactionID) }
        if let date = entry.transaction.revocationDate {
            throw .alreadyRefunded(transactionID: transactionID, on: date)
        }
        var records: [JournalRecord] = []
        var refunded = entry.transaction
        for var granted in state.sameGrant(as: entry) where granted.transaction.revocationDate == nil {
            granted.transaction.revocationDate = now
            granted.transaction.revocationReason = reason
            granted.finished = false
            records.append(JournalRecord.make(granted))
            if granted.id == entry.id { refunded = granted.transaction }
        }
        if let group = entry.transaction.subscriptionGroupID,
            var stored = state.subscription(accountID: account, groupID: group),
            let latest = state.entries[stored.latestTransactionID],
            state.sameGrant(as: latest).contains(where: { $0.id == entry.id })
        {
            _ = stored.lifecycle.revoke(at: now)
            records.append(JournalRecord.make(stored))
        }
        return (records, refunded)
    }

    /// The records that reverse the refund of `transactionID` of `accountID`: what it granted
    /// alongside is un-revoked and queued again, and a subscription period the refund ended is
    /// active again until its transaction's `expiresDate` (if that is still ahead of `now`).
    /// - Returns: the records and the restored transaction.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it was not refunded.
    static func reverse(
        _ transactionID: String, accountID account: String, now: Date, in state: JournalState
    ) throws(LocalAppStoreError) -> (records: [JournalRecord], result: StoreCore.Transaction) {
        guard let entry = state.entries[transactionID], entry.accountID == account else {
            throw .unknownTransaction(transactionID)
        }
        guard entry.transaction.revocationDate != nil else {
            throw .notPending(transactionID: transactionID, state: "not refunded", expected: "a refunded purchase")
        }
        var records: [JournalRecord] = []
        var restored = entry.transaction
        for var granted in state.entries(sameGrantRevokedAs: entry) {
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
