import Foundation
import StoreCore

/// The Transaction Manager (what Xcode's window of that name does), the customer-service
/// verbs on the account's transactions: its history and ledger, the deferred purchases and
/// their approval, decline or resolve, refunds and their reversal, a purchase started from the
/// App Store, and importing a history made elsewhere. Reach it as `store.transactionManager`;
/// the subscription verbs (renew, expire, cancel, billing issue, price increase) are the
/// subscription lifecycle's (`store.subscriptions`).
///
/// Each verb runs on the store's executor, in one durable write, and the app hears of what it
/// changed on its event stream.
public struct TransactionManager: Sendable {
    let store: LocalAppStore

    // MARK: - Reading

    /// Deferred transactions of the account: waiting for approval (Ask to Buy) or to be resolved.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func pending() async throws(LocalAppStoreError) -> [PendingTransaction] {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            let account = store.accountID
            return store.state.unfinishedEntries.compactMap { entry in
                guard entry.accountID == account, entry.transaction.state == .deferred, let reason = entry.pending
                else { return nil }
                return PendingTransaction(transaction: store.signed([entry.transaction])[0], reason: reason)
            }
        }
    }

    /// Every transaction of the account, finished or not, oldest first.
    /// - Throws: `.io` or `.corrupt` when the journal or the compacted history cannot be read.
    public func history() async throws(LocalAppStoreError) -> [StoreCore.Transaction] {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            return store.signed(try PaymentQueue.accountEntries(in: store).map(\.transaction))
        }
    }

    /// The transactions the account was charged for, oldest first: its purchase ledger.
    /// - Throws: `.io` or `.corrupt` when the journal or the compacted history cannot be read.
    public func charges() async throws(LocalAppStoreError) -> [StoreCore.Transaction] {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            return store.signed(try PaymentQueue.accountEntries(in: store).filter(\.charged).map(\.transaction))
        }
    }

    // MARK: - Deferred purchases

    /// Approves an Ask to Buy purchase: the account is charged and it becomes `.purchased`.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it does not wait for approval.
    @discardableResult
    public func approve(transactionID: String) async throws(LocalAppStoreError) -> StoreCore.Transaction {
        try await store.perform { store throws(LocalAppStoreError) in
            try PaymentQueue.complete(transactionID, waitingFor: .askToBuy, in: store)
        }
    }

    /// Declines an Ask to Buy purchase: it fails with `.paymentCancelled`, nothing is charged.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it does not wait for approval.
    @discardableResult
    public func decline(transactionID: String) async throws(LocalAppStoreError) -> StoreCore.Transaction {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            let (transaction, _) = try store.transactAndAnnounce { state throws(LocalAppStoreError) in
                let entry = try ChargingRules.decline(transactionID, accountID: account, in: state)
                return ([JournalRecord.make(entry)], entry.transaction)
            }
            return store.signed([transaction])[0]
        }
    }

    /// Resolves an interrupted purchase: the account is charged and it becomes `.purchased`.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it was not interrupted.
    @discardableResult
    public func resolve(transactionID: String) async throws(LocalAppStoreError) -> StoreCore.Transaction {
        try await store.perform { store throws(LocalAppStoreError) in
            try PaymentQueue.complete(transactionID, waitingFor: .interrupted, in: store)
        }
    }

    // MARK: - Refunds

    /// Refunds a transaction: it is revoked now with `reason` (0 other, 1 an issue in the app);
    /// a subscription's current period ends with it.
    /// - Throws: `.unknownTransaction` when the account was not charged for it and it is not
    ///   purchased or restored; `.alreadyRefunded`.
    @discardableResult
    public func refund(
        transactionID: String, reason: Int = 0
    ) async throws(LocalAppStoreError)
        -> StoreCore
        .Transaction
    {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            let now = store.configuration.clock.now
            let (refunded, changed) = try store.transact { state throws(LocalAppStoreError) in
                try RefundRules.refund(transactionID, accountID: account, reason: reason, now: now, in: state)
            }
            store.announceRevisions(changed)
            Subscriptions.changed(in: store)
            return store.signed([refunded])[0]
        }
    }

    /// Reverses a refund: the purchase (with what it granted alongside) grants again and goes
    /// back in the queue un-revoked, so the app learns of it and its entitlement returns. A
    /// subscription period the refund ended is active again until its transaction's
    /// `expiresDate`, and renews then as it would have; one whose period has passed since
    /// stays expired.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it was not refunded.
    @discardableResult
    public func reverseRefund(transactionID: String) async throws(LocalAppStoreError) -> StoreCore.Transaction {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            let now = store.configuration.clock.now
            let (restored, changed) = try store.transact { state throws(LocalAppStoreError) in
                try RefundRules.reverse(transactionID, accountID: account, now: now, in: state)
            }
            store.announceRevisions(changed)
            Subscriptions.changed(in: store)
            return store.signed([restored])[0]
        }
    }

    // MARK: - Promoted purchases

    /// Simulates a purchase started from the App Store (a promoted product): sends
    /// `.storePaymentRequested` on the event stream, for the app to add or not.
    /// - Throws: `.unknownProduct` when the catalog has no such product.
    public func requestStorePayment(productID: String) async throws(LocalAppStoreError) {
        try await store.perform { store throws(LocalAppStoreError) in
            guard let product = store.configuration.catalog.product(id: productID) else {
                throw .unknownProduct(productID)
            }
            store.send(.storePaymentRequested(Payment(productID: productID), store.localizer.localize(product)))
        }
    }
}

extension LocalAppStore {
    /// The Transaction Manager: the account's history and ledger, deferred purchases, refunds.
    public nonisolated var transactionManager: TransactionManager { TransactionManager(store: self) }
}
