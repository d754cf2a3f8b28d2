import Foundation
import StoreCore

/// Refund requests from the app (StoreKit 2's `Transaction.beginRefundRequest`): queued in
/// the journal, approved or declined here (by the Transaction Manager's user), and told to the
/// app on its event stream once (`BackendEvent.refundRequestDecided`), by whichever process
/// listens. An approval refunds through `RefundRules`, in the same write as the decision.
/// Reach it as `store.refundRequests`.
public struct RefundRequests: Sendable {
    let store: LocalAppStore

    /// The reason a request made without one carries (StoreKit's refund sheet's first).
    static let defaultReason = "UNSATISFIED_WITH_PURCHASE"

    /// Queues a refund request with the reason the customer picked on the refund sheet
    /// (Apple's `consumptionRequestReason`, one of `RefundRequest.reasons`), which the
    /// `CONSUMPTION_REQUEST` notification carries; `LocalAppStore.beginRefundRequest(transactionID:)`
    /// picks `UNSATISFIED_WITH_PURCHASE`.
    /// - Returns: `.success` once the request is journaled.
    /// - Throws: `.duplicateRequest` while a request for the transaction is pending or was
    ///   approved; `.failed` for an unknown, unpurchased or refunded transaction, or when the
    ///   journal cannot be written.
    public func begin(
        transactionID: String, consumptionRequestReason: String
    ) async throws(RefundRequestError) -> RefundRequestStatus {
        try await store.perform { store throws(RefundRequestError) in
            try Self.begin(transactionID: transactionID, consumptionRequestReason: consumptionRequestReason, in: store)
        }
    }

    /// The account's refund requests, oldest first, pending and decided.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func all() async throws(LocalAppStoreError) -> [RefundRequest] {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            let account = store.accountID
            return store.state.storeKit.orderedRefundRequests.filter { $0.accountID == account }
        }
    }

    /// Approves a pending refund request: the transaction is refunded (revoked now with
    /// `reason`, 0 other or 1 an issue in the app) in the same write, and the app hears both.
    /// - Throws: `.unknownRefundRequest` when no pending request has this ID; the refund's errors.
    @discardableResult
    public func approve(_ id: String, reason: Int = 0) async throws(LocalAppStoreError) -> RefundRequest {
        try await decide(id, approve: true, reason: reason)
    }

    /// Declines a pending refund request: the transaction stands; the app hears the decision.
    /// - Throws: `.unknownRefundRequest` when no pending request has this ID.
    @discardableResult
    public func decline(_ id: String) async throws(LocalAppStoreError) -> RefundRequest {
        try await decide(id, approve: false, reason: 0)
    }

    private func decide(_ id: String, approve: Bool, reason: Int) async throws(LocalAppStoreError) -> RefundRequest {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            let now = store.configuration.clock.now
            let (decided, changed) = try store.transact { state throws(LocalAppStoreError) in
                guard var request = state.storeKit.refundRequests[id.lowercased()], request.accountID == account,
                    request.status == .pending
                else { throw .unknownRefundRequest(id) }
                var records: [JournalRecord] = []
                if approve {
                    records = try RefundRules.refund(
                        request.transactionID, accountID: account, reason: reason, now: now, in: state
                    ).records
                    request.revocationReason = reason
                }
                request.status = approve ? .approved : .declined
                request.decidedAt = now
                records.append(JournalRecord.make(StoreKitRecord(refundRequest: request)))
                return (records, request)
            }
            store.announceRevisions(changed)
            if approve { Subscriptions.changed(in: store) }
            Self.deliverDecisions(in: store)
            return decided
        }
    }

    // MARK: - On the store's executor

    /// Queues a refund request (see `begin(transactionID:consumptionRequestReason:)`).
    static func begin(
        transactionID: String, consumptionRequestReason: String, in store: isolated LocalAppStore
    ) throws(RefundRequestError) -> RefundRequestStatus {
        let account = store.accountID
        let now = store.configuration.clock.now
        do {
            _ = try store.transactAndAnnounce { state throws(LocalAppStoreError) in
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

    /// Sends the decisions the app was not told yet on the event stream, and journals that
    /// they were told, so each reaches the app once (by this process or another that listens).
    static func deliverDecisions(in store: isolated LocalAppStore) {
        guard store.hasListeners else { return }
        let account = store.accountID
        guard
            store.state.storeKit.orderedRefundRequests.contains(where: {
                $0.accountID == account && !$0.isDeliveredToApp && $0.decision != nil
            })
        else { return }
        let told = try? store.transact(sync: false) { state throws(LocalAppStoreError) in
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
        for decision in told?.result ?? [] { store.send(.refundRequestDecided(decision)) }
    }
}

extension LocalAppStore {
    /// Refund requests from the app, to approve or decline.
    public nonisolated var refundRequests: RefundRequests { RefundRequests(store: self) }
}
