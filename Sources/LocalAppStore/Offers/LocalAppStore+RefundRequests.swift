import Foundation
import StoreCore

/// Refund requests from the app (StoreKit 2's `Transaction.beginRefundRequest`): queued in
/// the journal, approved or declined by the Transaction Manager, and told to the app on its
/// event stream once (`BackendEvent.refundRequestDecided`), by whichever process listens.
extension LocalAppStore {
    /// Queues a refund request for a transaction of the account.
    /// - Returns: `.success` once the request is journaled.
    /// - Throws: `.duplicateRequest` while a request for the transaction is pending or was
    ///   approved; `.failed` for an unknown, unpurchased or refunded transaction, or when the
    ///   journal cannot be written.
    public func beginRefundRequest(transactionID: String) async throws(RefundRequestError) -> RefundRequestStatus {
        try await beginRefundRequest(
            transactionID: transactionID, consumptionRequestReason: "UNSATISFIED_WITH_PURCHASE")
    }

    /// Queues a refund request with the reason the customer picked on the refund sheet
    /// (Apple's `consumptionRequestReason`, one of `RefundRequest.reasons`), which the
    /// `CONSUMPTION_REQUEST` notification carries; `beginRefundRequest(transactionID:)` picks
    /// `UNSATISFIED_WITH_PURCHASE`.
    /// - Throws: what `beginRefundRequest(transactionID:)` throws.
    public func beginRefundRequest(
        transactionID: String, consumptionRequestReason: String
    ) async throws(RefundRequestError) -> RefundRequestStatus {
        let account = configuration.account.id
        let now = configuration.clock.now
        do {
            _ = try transactAndAnnounce { state throws(LocalAppStoreError) in
                guard let entry = state.entries[transactionID], entry.accountID == account,
                    entry.transaction.state == .purchased || entry.transaction.state == .restored
                else { throw .unknownTransaction(transactionID) }
                if let date = entry.transaction.revocationDate {
                    throw .alreadyRefunded(transactionID: transactionID, on: date)
                }
                if state.storeKit.orderedRefundRequests.contains(where: {
                    $0.transactionID == transactionID && $0.status != .declined
                }) {
                    throw .duplicateRefundRequest(transactionID)
                }
                let request = RefundRequest(
                    id: UUID().uuidString.lowercased(), transactionID: transactionID,
                    originalTransactionID: entry.transaction.originalTransactionID,
                    productID: entry.transaction.productID,
                    accountID: account, requestedAt: now, consumptionRequestReason: consumptionRequestReason)
                return ([JournalRecord.make(StoreKitRecord(refundRequest: request))], ())
            }
        } catch .duplicateRefundRequest {
            throw .duplicateRequest(transactionID: transactionID)
        } catch {
            throw .failed(error.description)
        }
        return .success
    }

    /// The account's refund requests, oldest first, pending and decided.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func refundRequests() throws(LocalAppStoreError) -> [RefundRequest] {
        try refresh()
        let account = configuration.account.id
        return journal.state.storeKit.orderedRefundRequests.filter { $0.accountID == account }
    }

    /// Approves a pending refund request: the transaction is refunded (revoked now with
    /// `reason`, 0 other or 1 an issue in the app) in the same write, and the app hears both.
    /// - Throws: `.unknownRefundRequest` when no pending request has this ID; the refund's errors.
    @discardableResult
    public func approveRefundRequest(_ id: String, reason: Int = 0) throws(LocalAppStoreError) -> RefundRequest {
        try decideRefundRequest(id, approve: true, reason: reason)
    }

    /// Declines a pending refund request: the transaction stands; the app hears the decision.
    /// - Throws: `.unknownRefundRequest` when no pending request has this ID.
    @discardableResult
    public func declineRefundRequest(_ id: String) throws(LocalAppStoreError) -> RefundRequest {
        try decideRefundRequest(id, approve: false, reason: 0)
    }

    private func decideRefundRequest(
        _ id: String, approve: Bool, reason: Int
    ) throws(LocalAppStoreError) -> RefundRequest {
        let account = configuration.account.id
        let now = configuration.clock.now
        let (decided, changed) = try journal.transact { state throws(LocalAppStoreError) in
            guard var request = state.storeKit.refundRequests[id.lowercased()], request.accountID == account,
                request.status == .pending
            else { throw .unknownRefundRequest(id) }
            var records: [JournalRecord] = []
            if approve {
                records = try refundRecords(
                    in: state, transactionID: request.transactionID, accountID: account, reason: reason, now: now
                ).records
                request.revocationReason = reason
            }
            request.status = approve ? .approved : .declined
            request.decidedAt = now
            records.append(JournalRecord.make(StoreKitRecord(refundRequest: request)))
            return (records, request)
        }
        announceRevisions(changed)
        if approve { subscriptionsChanged() }
        deliverRefundDecisions()
        return decided
    }

    /// Sends the decisions the app was not told yet on the event stream, and journals that
    /// they were told, so each reaches the app once (by this process or another that listens).
    func deliverRefundDecisions() {
        guard !fanOut.isEmpty else { return }
        let account = configuration.account.id
        guard
            journal.state.storeKit.orderedRefundRequests.contains(where: {
                $0.accountID == account && !$0.isDeliveredToApp && $0.decision != nil
            })
        else { return }
        let told = try? journal.transact(sync: false) { state throws(LocalAppStoreError) in
            var records: [JournalRecord] = []
            var decisions: [RefundDecision] = []
            for var request in state.storeKit.orderedRefundRequests
            where request.accountID == account && !request.isDeliveredToApp {
                guard let decision = request.decision else { continue }
                request.isDeliveredToApp = true
                records.append(JournalRecord.make(StoreKitRecord(refundRequest: request)))
                decisions.append(decision)
            }
            return (records, decisions)
        }
        for decision in told?.result ?? [] { fanOut.send(.refundRequestDecided(decision)) }
    }
}
