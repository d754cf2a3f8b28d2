import Catalog
import Foundation
import StoreCore

/// The local store's subscriptions: renewals on the store clock, renewal info, and the
/// transaction manager's subscription commands (renew, expire, cancel, refund, billing issue).
extension LocalAppStore {
    /// The account's subscriptions as the store sees them, oldest first.
    public func subscriptions() throws(LocalAppStoreError) -> [SubscriptionLifecycle] {
        try pullChecked()
        return journal.state.subscriptions(accountID: configuration.account.id).map(\.lifecycle)
    }

    /// Renewal info for each of the account's subscriptions, as of the store clock's now (a
    /// period that ended since the last renewal was journaled counts as ended).
    public func renewalInfo() async -> [RenewalInfo] {
        try? pullChecked()
        let now = configuration.clock.now
        let desk = self.desk(journal.state, now: now)
        return journal.state.subscriptions(accountID: configuration.account.id).map { stored in
            var lifecycle = stored.lifecycle
            _ = lifecycle.advance(
                to: now, rate: desk.rate, gracePeriodEnabled: desk.settings.gracePeriod,
                billingFails: desk.settings.billingRetryOnRenewal, period: desk.period(of:))
            var info = lifecycle.renewalInfo(at: now)
            info.signedRenewalInfo = signedRenewalInfo(info, of: stored, now: now)
            return info
        }
    }

    /// Announces changed entries, and sends finished ones whose transaction changed (a refund,
    /// an early expiry) as updates too, so the app sees the new version.
    private func announceRevisions(_ changed: [QueueEntry]) {
        announce(changed)
        let revised = changed.filter { $0.finished && $0.accountID == configuration.account.id }.map(\.transaction)
        guard !revised.isEmpty else { return }
        let signedRevisions = signed(revised)
        for continuation in listeners.values { continuation.yield(.transactionsUpdated(signedRevisions)) }
    }

    /// Journals every renewal that fell due, in order, tells listeners, and sets the timer for
    /// the next one. Renewals that fell due while no process ran are delivered this way at start.
    func advanceSubscriptions() {
        let account = configuration.account.id
        let now = configuration.clock.now
        let desk = self.desk(journal.state, now: now)
        let result = try? journal.transact { state throws(LocalAppStoreError) in
            (desk.advance(accountID: account, state: &state), ())
        }
        if let changed = result?.changed, !changed.isEmpty { announce(changed) }
        subscriptionsChanged()
    }

    /// The records that change the time rate to `settings.storeTimeRate`: renewals that fell
    /// due at the old rate are journaled first, at the old rate; then a current period that
    /// would outlast one period at a faster new rate ends one new period from now (its
    /// transaction back in the queue with the new expiry), so the new pace shows at once.
    func timeRateChange(to settings: LocalStoreSettings, state: inout JournalState, now: Date) -> [JournalRecord] {
        let account = configuration.account.id
        var records = desk(state, now: now).advance(accountID: account, state: &state)
        records.append(JournalRecord.make(settings))
        for record in records { _ = state.apply(record) }
        let desk = self.desk(state, now: now)
        for var stored in state.subscriptions(accountID: account)
        where !stored.lifecycle.isExpired && stored.lifecycle.billingRetryStart == nil {
            guard let period = desk.period(of: stored.lifecycle.productID) else { continue }
            let end = desk.rate.end(of: period, startingAt: now)
            guard end < stored.lifecycle.periodEnd else { continue }
            stored.lifecycle.endPeriod(at: end)
            let revised = endLatestPeriod(of: stored, at: end, state: state) + [JournalRecord.make(stored)]
            for record in revised { _ = state.apply(record) }
            records += revised
        }
        return records
    }

    /// Tells listeners that subscription state may have changed, and re-arms the timer.
    func subscriptionsChanged() {
        guard !journal.state.subscriptions(accountID: configuration.account.id).isEmpty else { return }
        for continuation in listeners.values { continuation.yield(.subscriptionsChanged) }
        scheduleNextRenewal()
    }

    /// Sleeps on the store clock until the next period, grace or billing-retry end.
    private func scheduleNextRenewal() {
        renewalTimer?.cancel()
        let now = configuration.clock.now
        let rate = journal.state.settings.storeTimeRate
        let dues: [Date] = journal.state.subscriptions(accountID: configuration.account.id).compactMap { stored in
            let l = stored.lifecycle
            guard !l.isExpired else { return nil }
            if let retry = l.billingRetryStart {
                let period = configuration.catalog.product(id: l.productID)?.subscription.map { ProductLocalizer.period($0.period) }
                let retryEnd = retry.addingTimeInterval(rate.billingRetryPeriod(for: period ?? SubscriptionPeriod(value: 1, unit: .month)))
                return [l.graceEnd, retryEnd].compactMap { $0 }.filter { $0 > now }.min()
            }
            return l.periodEnd
        }
        guard let next = dues.min() else { return }
        let clock = configuration.clock
        renewalTimer = Task { [weak self] in
            do {
                try await clock.sleep(until: next)
            } catch {
                return
            }
            guard !Task.isCancelled else { return }
            await self?.advanceSubscriptions()
        }
    }

    // MARK: - Transaction manager

    /// Renews a subscription now (Xcode's "force renewal"): a new period starts at once. While
    /// billing fails (`setBillingIssue(on: true)` or the billing-retry setting) the renewal
    /// fails instead, as it would on the store clock: the period ends now and billing retry
    /// begins, in a grace period when the grace-period setting is on.
    /// - Parameter id: a transaction ID of the subscription, or its product ID.
    /// - Throws: `.notPending` for an expired subscription, or one in billing retry whose
    ///   billing still fails.
    @discardableResult
    public func renew(_ id: String) throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try changeSubscription(id) { stored, desk, state throws(LocalAppStoreError) in
            guard !stored.lifecycle.isExpired, let period = desk.period(of: stored.lifecycle.autoRenewProductID) else {
                throw .notPending(transactionID: id, state: "expired", expected: "an active subscription (buy it again)")
            }
            if stored.lifecycle.hasBillingIssue || desk.settings.billingRetryOnRenewal {
                guard stored.lifecycle.billingRetryStart == nil else {
                    throw .notPending(
                        transactionID: id, state: "in billing retry",
                        expected: "one whose billing works (turn the billing issue off first, which renews it)")
                }
                _ = stored.lifecycle.failRenewal(
                    at: desk.now, rate: desk.rate, gracePeriodEnabled: desk.settings.gracePeriod, period: desk.period(of:))
                return endLatestPeriod(of: stored, at: desk.now, state: state)
            }
            // The current period ends now (with its other transactions), and the next begins.
            let ended = endLatestPeriod(of: stored, at: desk.now, state: state)
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
            return endLatestPeriod(of: stored, at: desk.now, state: state)
        }
    }

    /// The transactions of the subscription's current period (with a downgrade's answer and
    /// restored copies), expiring at `date` and back in the queue, so an app that is not
    /// running gets the change at its next start.
    private func endLatestPeriod(of stored: StoredSubscription, at date: Date, state: JournalState) -> [JournalRecord] {
        guard let latest = state.entries[stored.latestTransactionID] else { return [] }
        return state.sameGrant(as: latest).compactMap { entry in
            guard (entry.transaction.expiresDate ?? .distantFuture) > date else { return nil }
            var ended = entry
            ended.transaction.expiresDate = date
            ended.finished = false
            return JournalRecord.make(ended)
        }
    }

    /// Turns auto-renew off (`on: false`, the customer cancels: access to the end of the period)
    /// or back on.
    @discardableResult
    public func setAutoRenew(_ id: String, on: Bool) throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try changeSubscription(id) { stored, _, _ throws(LocalAppStoreError) in
            guard !stored.lifecycle.isExpired else {
                throw .notPending(transactionID: id, state: "expired", expected: "an active subscription (buy it again)")
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
                throw .notPending(transactionID: id, state: "expired", expected: "an active subscription (buy it again)")
            }
            if on {
                stored.lifecycle.hasBillingIssue = true
                return []
            }
            let events = stored.lifecycle.resolveBillingIssue(at: desk.now, rate: desk.rate, period: desk.period(of:))
            return desk.renewals(events, for: &stored, state: &state)
        }
    }

    /// Refunds a transaction: it is revoked now with `reason` (0 other, 1 an issue in the app);
    /// a subscription's current period ends with it. Returns it refunded, with its signed form.
    @discardableResult
    public func refund(transactionID: String, reason: Int = 0) throws(LocalAppStoreError) -> StoreCore.Transaction {
        let account = configuration.account.id
        let now = configuration.clock.now
        let (refunded, changed) = try journal.transact { state throws(LocalAppStoreError) in
            guard let entry = state.entries[transactionID], entry.accountID == account,
                  entry.charged || entry.transaction.state == .purchased || entry.transaction.state == .restored
            else { throw .unknownTransaction(transactionID) }
            if let date = entry.transaction.revocationDate { throw .alreadyRefunded(transactionID: transactionID, on: date) }
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
               state.sameGrant(as: latest).contains(where: { $0.id == entry.id }) {
                _ = stored.lifecycle.expireNow(at: now, intent: .unknown)
                records.append(JournalRecord.make(stored))
            }
            return (records, refunded)
        }
        announceRevisions(changed)
        subscriptionsChanged()
        return signed([refunded])[0]
    }

    /// Finds the subscription `id` names (a transaction ID of it, or its product ID), lets
    /// `body` change it under the write lock, journals the result and tells listeners.
    /// - Returns: the subscription's latest transaction afterwards, with its signed form.
    private func changeSubscription(
        _ id: String,
        _ body: (inout StoredSubscription, SubscriptionDesk, inout JournalState) throws(LocalAppStoreError) -> [JournalRecord]
    ) throws(LocalAppStoreError) -> StoreCore.Transaction? {
        let account = configuration.account.id
        let now = configuration.clock.now
        let desk = self.desk(journal.state, now: now)
        let (latest, changed) = try journal.transact { state throws(LocalAppStoreError) in
            let group = state.entries[id].flatMap { $0.accountID == account ? $0.transaction.subscriptionGroupID : nil }
                ?? state.subscriptions(accountID: account).last { $0.lifecycle.productID == id || $0.lifecycle.autoRenewProductID == id }?.lifecycle.groupID
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
