import Foundation
import StoreCore

/// Refund requests and their answers, and reversed refunds, as the App Store's side of them
/// (what Apple's review does, done by hand): a request sends `CONSUMPTION_REQUEST`, approving
/// it refunds (`REFUND`), declining sends `REFUND_DECLINED`; a reversed refund grants again
/// (`REFUND_REVERSED`).
extension LocalAppStore {
    /// A customer asks for a refund of one of the account's purchases.
    /// - Parameters:
    ///   - transactionID: the purchase.
    ///   - reason: Apple's `consumptionRequestReason` (`RefundRequest.reasons`).
    /// - Throws: `.unknownTransaction`, `.alreadyRefunded`, or `.notPending` when a request for
    ///   it waits already.
    @discardableResult
    public func requestRefund(transactionID: String, reason: String = "UNSATISFIED_WITH_PURCHASE") throws(LocalAppStoreError) -> RefundRequest {
        let account = configuration.account.id
        let now = configuration.clock.now
        let (request, _) = try transactAndAnnounce { state throws(LocalAppStoreError) in
            guard let entry = state.entries[transactionID], entry.accountID == account, entry.charged else {
                throw .unknownTransaction(transactionID)
            }
            if let date = entry.transaction.revocationDate { throw .alreadyRefunded(transactionID: transactionID, on: date) }
            if state.notifications.refundRequests[transactionID]?.status == .pending {
                throw .notPending(transactionID: transactionID, state: "waiting for a refund decision", expected: "a purchase without a pending refund request")
            }
            let request = RefundRequest(transactionID: transactionID, accountID: account, reason: reason, requestDate: now, status: .pending)
            return ([JournalRecord.make(NotificationRecord(refundRequest: request))], request)
        }
        return request
    }

    /// Answers a pending refund request: approved refunds the purchase, declined keeps it.
    /// - Throws: `.notPending` when no request for it waits; what `refund` throws.
    @discardableResult
    public func answerRefundRequest(transactionID: String, approve: Bool) throws(LocalAppStoreError) -> RefundRequest {
        try refresh()
        guard var request = journal.state.notifications.refundRequests[transactionID], request.status == .pending else {
            throw .notPending(transactionID: transactionID, state: "without a pending refund request", expected: "one with a request ('store refund-request ID')")
        }
        if approve {
            request.status = .approved
            try refund(transactionID: transactionID, reason: 0, alsoRecording: request)
        } else {
            request.status = .declined
            let answered = request
            _ = try transactAndAnnounce { _ throws(LocalAppStoreError) in
                ([JournalRecord.make(NotificationRecord(refundRequest: answered))], ())
            }
        }
        return request
    }

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
