import Foundation
import StoreCore

/// Price increases that need the customer's consent (App Store Connect's price change with
/// consent, and the customer's answer on the price consent sheet). One announced and not
/// consented to by the renewal date ends the subscription there (`lacksPriceConsent`).
extension LocalAppStore {
    /// What the customer does with a price increase.
    public enum PriceConsent: String, Sendable, CaseIterable {
        /// Agrees: the subscription renews (`PRICE_INCREASE`/`ACCEPTED`).
        case accept
        /// Declines (the customer does not consent): nothing is sent now and auto-renew stays
        /// as it is; at the renewal date the subscription expires (`EXPIRED`/`PRICE_INCREASE`,
        /// expiration intent 3), as one left unanswered does.
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
            guard let group, let stored = state.subscription(accountID: account, groupID: group) else { throw .unknownTransaction(id) }
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
            guard var increase = state.currentPriceIncrease(of: stored), increase.status == .pending else {
                throw .notPending(transactionID: id, state: "without a pending price increase", expected: "one announced ('store price-increase ID')")
            }
            increase.status = consent == .accept ? .accepted : .declined
            return ([JournalRecord.make(NotificationRecord(priceIncrease: increase))], increase)
        }
        announce(changed)
        subscriptionsChanged()
        return increase
    }
}

extension JournalState {
    /// The price increase announced in the subscription's current period, if any: one from an
    /// earlier period was settled at that period's end (renewed after consent, or expired).
    func currentPriceIncrease(of stored: StoredSubscription) -> PriceIncrease? {
        guard let increase = notifications.priceIncreases[stored.lifecycle.originalTransactionID],
              increase.date >= stored.lifecycle.periodStart else { return nil }
        return increase
    }

    /// Whether the subscription's current period has a price increase not consented to
    /// (pending or declined): at its renewal date it expires instead of renewing.
    func lacksPriceConsent(_ stored: StoredSubscription) -> Bool {
        currentPriceIncrease(of: stored).map { $0.status != .accepted } ?? false
    }
}
