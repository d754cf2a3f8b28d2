import Foundation
import StoreCore

/// The Transaction Manager's subscription commands (Xcode's force renewal, expire, cancel,
/// billing issue): each finds the subscription, changes its lifecycle under the write lock
/// through the `SubscriptionDesk`, and re-queues the transactions it changes, so an app that
/// is not running gets the change at its next start.
extension LocalAppStore {
    /// Renews a subscription now (Xcode's "force renewal"): a new period starts at once. While
    /// billing fails (`setBillingIssue(on: true)` or the billing-retry setting) the renewal
    /// fails instead, as it would on the store clock: the period ends now and billing retry
    /// begins, in a grace period when the grace-period setting is on. A price increase the
    /// customer did not consent to (`priceIncrease`) makes it expire now instead
    /// (`EXPIRED`/`PRICE_INCREASE`), as the renewal date would.
    /// A subscription whose auto-renew is off is never renewed (Apple renews only what will
    /// auto-renew): it is refused, and nothing changes.
    /// - Parameter id: a transaction ID of the subscription, or its product ID.
    /// - Throws: `.notPending` for an expired subscription, one whose auto-renew is off, or one
    ///   in billing retry whose billing still fails.
    @discardableResult
    public func renew(_ id: String) throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try changeSubscription(id) { stored, desk, state throws(LocalAppStoreError) in
            guard !stored.lifecycle.isExpired, let period = desk.period(of: stored.lifecycle.autoRenewProductID) else {
                throw .notPending(
                    transactionID: id, state: "expired", expected: "an active subscription (buy it again)")
            }
            guard stored.lifecycle.willAutoRenew else {
                throw .notPending(
                    transactionID: id, state: "cancelled (auto-renew is off)",
                    expected: "one that renews: 'storefront store cancel \(id) --undo' turns auto-renew back on, "
                        + "'storefront store expire \(id)' ends it now")
            }
            if stored.lifecycle.hasBillingIssue || desk.settings.billingRetryOnRenewal {
                guard stored.lifecycle.billingRetryStart == nil else {
                    throw .notPending(
                        transactionID: id, state: "in billing retry",
                        expected: "one whose billing works (turn the billing issue off first, which renews it)")
                }
                _ = stored.lifecycle.failRenewal(
                    at: desk.now, rate: desk.rate, gracePeriodEnabled: desk.settings.gracePeriod,
                    period: desk.period(of:))
                return SubscriptionDesk.endLatestPeriod(of: stored, at: desk.now, state: state)
            }
            // A price increase the customer did not consent to ends it instead, as at its date.
            if state.lacksPriceConsent(stored) {
                _ = stored.lifecycle.expireNow(at: desk.now, intent: .priceIncrease)
                return SubscriptionDesk.endLatestPeriod(of: stored, at: desk.now, state: state)
            }
            // The current period ends now (with its other transactions), and the next begins.
            let ended = SubscriptionDesk.endLatestPeriod(of: stored, at: desk.now, state: state)
            let events = stored.lifecycle.switchNow(
                to: stored.lifecycle.autoRenewProductID, at: desk.now, period: period, rate: desk.rate)
            return ended + desk.renewals(events, for: &stored, state: &state)
        }
    }

    /// Ends a subscription now: its current period's transaction expires at once.
    @discardableResult
    public func expire(_ id: String) throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try changeSubscription(id) { stored, desk, state throws(LocalAppStoreError) in
            guard !stored.lifecycle.isExpired else {
                throw .notPending(transactionID: id, state: "expired", expected: "an active subscription")
            }
            _ = stored.lifecycle.expireNow(at: desk.now, intent: .cancelled)
            return SubscriptionDesk.endLatestPeriod(of: stored, at: desk.now, state: state)
        }
    }

    /// Turns auto-renew off (`on: false`, the customer cancels: access to the end of the period)
    /// or back on.
    @discardableResult
    public func setAutoRenew(_ id: String, on: Bool) throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try changeSubscription(id) { stored, _, _ throws(LocalAppStoreError) in
            guard !stored.lifecycle.isExpired else {
                throw .notPending(
                    transactionID: id, state: "expired", expected: "an active subscription (buy it again)")
            }
            stored.lifecycle.willAutoRenew = on
            return []
        }
    }

    /// Turns a billing problem on for a subscription (its renewals fail and enter billing
    /// retry), or off (resolved: a subscription in billing retry renews at once).
    @discardableResult
    public func setBillingIssue(_ id: String, on: Bool) throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try changeSubscription(id) { stored, desk, state throws(LocalAppStoreError) in
            guard !stored.lifecycle.isExpired else {
                throw .notPending(
                    transactionID: id, state: "expired", expected: "an active subscription (buy it again)")
            }
            if on {
                stored.lifecycle.hasBillingIssue = true
                return []
            }
            let events = stored.lifecycle.resolveBillingIssue(at: desk.now, rate: desk.rate, period: desk.period(of:))
            return desk.renewals(events, for: &stored, state: &state)
        }
    }

    /// Finds the subscription `id` names (a transaction ID of it, or its product ID), lets
    /// `body` change it under the write lock, journals the result and tells listeners.
    /// - Returns: the subscription's latest transaction afterwards, with its signed form.
    private func changeSubscription(
        _ id: String,
        _ body: (inout StoredSubscription, SubscriptionDesk, inout JournalState) throws(LocalAppStoreError) ->
            [JournalRecord]
    ) throws(LocalAppStoreError) -> StoreCore.Transaction? {
        let account = configuration.account.id
        let now = configuration.clock.now
        let desk = subscriptionDesk(for: journal.state, at: now)
        let (latest, changed) = try journal.transact { state throws(LocalAppStoreError) in
            let group =
                state.entries[id].flatMap { $0.accountID == account ? $0.transaction.subscriptionGroupID : nil }
                ?? state.subscriptions(accountID: account).last {
                    $0.lifecycle.productID == id || $0.lifecycle.autoRenewProductID == id
                }?.lifecycle.groupID
            guard let group, var stored = state.subscription(accountID: account, groupID: group) else {
                throw .unknownTransaction(id)
            }
            var records = try body(&stored, desk, &state)
            records.append(JournalRecord.make(stored))
            return (records, stored.latestTransactionID)
        }
        announceRevisions(changed)
        subscriptionsChanged()
        return journal.state.entries[latest].map { signed([$0.transaction])[0] }
    }
}
