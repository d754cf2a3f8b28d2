import Foundation
import StoreCore

/// Price increases that need the customer's consent (App Store Connect's price change with
/// consent, and the customer's answer on the price consent sheet).
extension LocalAppStore {
    /// What the customer does with a price increase.
    public enum PriceConsent: String, Sendable, CaseIterable {
        /// Agrees: the subscription renews (`PRICE_INCREASE`/`ACCEPTED`).
        case accept
        /// Declines: auto-renew turns off and the subscription ends at its renewal date
        /// (`EXPIRED`/`PRICE_INCREASE`).
        case decline
    }

    /// Announces a price increase to a subscriber (`PRICE_INCREASE`/`PENDING`), or records the
    /// customer's answer to the one announced.
    /// - Parameters:
    ///   - id: a transaction ID of the subscription, or its product ID.
    ///   - consent: nil announces; otherwise the answer.
    /// - Throws: `.unknownTransaction`; `.notPending` for an expired subscription, or an answer
    ///   without an announced increase.
    @discardableResult
    public func priceIncrease(_ id: String, consent: PriceConsent? = nil) throws(LocalAppStoreError) -> PriceIncrease {
        let account = configuration.account.id
        let now = configuration.clock.now
        let (increase, changed) = try journal.transact { state throws(LocalAppStoreError) in
            let group = state.entries[id].flatMap { $0.accountID == account ? $0.transaction.subscriptionGroupID : nil }
                ?? state.subscriptions(accountID: account).last { $0.lifecycle.productID == id || $0.lifecycle.autoRenewProductID == id }?.lifecycle.groupID
            guard let group, var stored = state.subscription(accountID: account, groupID: group) else { throw .unknownTransaction(id) }
            guard !stored.lifecycle.isExpired else {
                throw .notPending(transactionID: id, state: "expired", expected: "an active subscription")
            }
            let original = stored.lifecycle.originalTransactionID
            guard let consent else {
                let increase = PriceIncrease(
                    originalTransactionID: original, accountID: account, productID: stored.lifecycle.autoRenewProductID,
                    date: now, status: .pending)
                return ([JournalRecord.make(NotificationRecord(priceIncrease: increase))], increase)
            }
            guard var increase = state.notifications.priceIncreases[original], increase.status == .pending else {
                throw .notPending(transactionID: id, state: "without a pending price increase", expected: "one announced ('store price-increase ID')")
            }
            increase.status = consent == .accept ? .accepted : .declined
            var records = [JournalRecord.make(NotificationRecord(priceIncrease: increase))]
            if consent == .decline {
                stored.lifecycle.willAutoRenew = false
                records.append(JournalRecord.make(stored))
            }
            return (records, increase)
        }
        announce(changed)
        subscriptionsChanged()
        return increase
    }
}
