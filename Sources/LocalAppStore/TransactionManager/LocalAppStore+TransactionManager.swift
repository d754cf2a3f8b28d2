import Foundation
import StoreCore

/// The Transaction Manager (what Xcode's window of that name does): the account's history
/// and ledger, the deferred purchases and their approval, decline or resolve, refunds, and a
/// purchase started from the App Store. The subscription commands are in
/// `LocalAppStore+SubscriptionCommands.swift`.
extension LocalAppStore {
    // MARK: - Reading

    /// Deferred transactions of the account: waiting for approval (Ask to Buy) or to be resolved.
    public func pending() throws(LocalAppStoreError) -> [PendingTransaction] {
        try refresh()
        let account = configuration.account.id
        return journal.state.unfinishedEntries.compactMap { entry in
            guard entry.accountID == account, entry.transaction.state == .deferred, let reason = entry.pending else {
                return nil
            }
            return PendingTransaction(transaction: signed([entry.transaction])[0], reason: reason)
        }
    }

    /// Every transaction of the account, finished or not, oldest first.
    public func history() throws(LocalAppStoreError) -> [StoreCore.Transaction] {
        try refresh()
        return signed(try accountEntries().map(\.transaction))
    }

    /// The transactions the account was charged for, oldest first: its purchase ledger.
    public func charges() throws(LocalAppStoreError) -> [StoreCore.Transaction] {
        try refresh()
        return signed(try accountEntries().filter(\.charged).map(\.transaction))
    }

    // MARK: - Deferred purchases

    /// Approves an Ask to Buy purchase: the account is charged and it becomes `.purchased`.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it does not wait for approval.
    @discardableResult
    public func approve(transactionID: String) throws(LocalAppStoreError) -> StoreCore.Transaction {
        try complete(transactionID, waitingFor: .askToBuy)
    }

    /// Declines an Ask to Buy purchase: it fails with `.paymentCancelled`, nothing is charged.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it does not wait for approval.
    @discardableResult
    public func decline(transactionID: String) throws(LocalAppStoreError) -> StoreCore.Transaction {
        let account = configuration.account.id
        let (transaction, _) = try transactAndAnnounce { state throws(LocalAppStoreError) in
            let entry = try ChargingRules.decline(transactionID, accountID: account, in: state)
            return ([JournalRecord.make(entry)], entry.transaction)
        }
        return signed([transaction])[0]
    }

    /// Resolves an interrupted purchase: the account is charged and it becomes `.purchased`.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it was not interrupted.
    @discardableResult
    public func resolve(transactionID: String) throws(LocalAppStoreError) -> StoreCore.Transaction {
        try complete(transactionID, waitingFor: .interrupted)
    }

    // MARK: - Refunds

    /// Refunds a transaction: it is revoked now with `reason` (0 other, 1 an issue in the app);
    /// a subscription's current period ends with it.
    /// - Throws: `.unknownTransaction` when the account was not charged for it and it is not
    ///   purchased or restored; `.alreadyRefunded`.
    @discardableResult
    public func refund(transactionID: String, reason: Int = 0) throws(LocalAppStoreError) -> StoreCore.Transaction {
        try refund(transactionID: transactionID, reason: reason, alsoRecording: nil)
    }

    /// `refund(transactionID:reason:)`, journaling the answered refund request in the same write.
    @discardableResult
    func refund(
        transactionID: String, reason: Int, alsoRecording request: RefundRequest?
    ) throws(LocalAppStoreError) -> StoreCore.Transaction {
        let account = configuration.account.id
        let now = configuration.clock.now
        let (refunded, changed) = try journal.transact { state throws(LocalAppStoreError) in
            try refundRecords(in: state, transactionID: transactionID, accountID: account, reason: reason, now: now)
        }
        announceRevisions(changed)
        subscriptionsChanged()
        return signed([refunded])[0]
    }

    /// The records that refund `transactionID` in `state`, and its refunded transaction (see
    /// `refund(transactionID:reason:)`); an approved refund request journals them too.
    nonisolated func refundRecords(
        in state: JournalState, transactionID: String, accountID account: String, reason: Int, now: Date
    ) throws(LocalAppStoreError) -> (records: [JournalRecord], result: StoreCore.Transaction) {
        guard let entry = state.entries[transactionID], entry.accountID == account,
            entry.charged || entry.transaction.state == .purchased || entry.transaction.state == .restored
        else { throw .unknownTransaction(transactionID) }
        if let date = entry.transaction.revocationDate {
            throw .alreadyRefunded(transactionID: transactionID, on: date)
        }
        // What it granted is refunded whole: its restored copies, and for a subscription the
        // period's other transactions (a downgrade's answer). Each goes back in the queue, so
        // an app that is not running gets the refund at its next start.
        var records: [JournalRecord] = []
        var refunded = entry.transaction
        for var granted in state.sameGrant(as: entry) where granted.transaction.revocationDate == nil {
            granted.transaction.revocationDate = now
            granted.transaction.revocationReason = reason
            granted.finished = false
            records.append(JournalRecord.make(granted))
            if granted.id == entry.id { refunded = granted.transaction }
        }
        // A refund of the current period ends the subscription.
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

    // MARK: - Promoted purchases

    /// Simulates a purchase started from the App Store (a promoted product): sends
    /// `.storePaymentRequested` on the event stream, for the app to add or not.
    /// - Throws: `.unknownProduct` when the catalog has no such product.
    public func requestStorePayment(productID: String) throws(LocalAppStoreError) {
        guard let product = configuration.catalog.product(id: productID) else { throw .unknownProduct(productID) }
        fanOut.send(.storePaymentRequested(Payment(productID: productID), localizer.localize(product)))
    }
}
