import Foundation
import StoreCore

/// The local store's subscriptions as time passes: renewals on the store clock, a change of
/// the time rate, and what the account's subscriptions and renewal info are now. The
/// Transaction Manager's subscription commands are in `LocalAppStore+SubscriptionCommands.swift`.
extension LocalAppStore {
    /// The account's subscriptions as the store sees them, oldest first.
    public func subscriptions() throws(LocalAppStoreError) -> [SubscriptionLifecycle] {
        try refresh()
        return journal.state.subscriptions(accountID: configuration.account.id).map(\.lifecycle)
    }

    /// Renewal info for each of the account's subscriptions, as of the store clock's now (a
    /// period that ended since the last renewal was journaled counts as ended).
    public func renewalInfo() async -> [RenewalInfo] {
        refreshForNonThrowingCaller()
        let now = configuration.clock.now
        let desk = subscriptionDesk(for: journal.state, at: now)
        return journal.state.subscriptions(accountID: configuration.account.id).map { stored in
            var lifecycle = stored.lifecycle
            _ = lifecycle.advance(
                to: now, rate: desk.rate, gracePeriodEnabled: desk.settings.gracePeriod,
                billingFails: desk.settings.billingRetryOnRenewal,
                lacksPriceConsent: journal.state.lacksPriceConsent(stored), period: desk.period(of:))
            var info = lifecycle.renewalInfo(at: now)
            info.signedRenewalInfo = signedRenewalInfo(info, of: stored, now: now)
            return info
        }
    }

    /// Journals every renewal that fell due, in order, tells listeners, and sets the timer for
    /// the next one. Renewals that fell due while no process ran are delivered this way at start.
    func advanceSubscriptions() {
        let account = configuration.account.id
        let now = configuration.clock.now
        let desk = subscriptionDesk(for: journal.state, at: now)
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
        var records = subscriptionDesk(for: state, at: now).advance(accountID: account, state: &state)
        records.append(JournalRecord.make(settings))
        for record in records { _ = state.apply(record) }
        let desk = subscriptionDesk(for: state, at: now)
        for var stored in state.subscriptions(accountID: account)
        where !stored.lifecycle.isExpired && stored.lifecycle.billingRetryStart == nil {
            guard let period = desk.period(of: stored.lifecycle.productID) else { continue }
            let end = desk.rate.end(of: period, startingAt: now)
            guard end < stored.lifecycle.periodEnd else { continue }
            stored.lifecycle.endPeriod(at: end)
            let revised =
                SubscriptionDesk.endLatestPeriod(of: stored, at: end, state: state) + [JournalRecord.make(stored)]
            for record in revised { _ = state.apply(record) }
            records += revised
        }
        return records
    }

    /// Tells listeners that subscription state may have changed, and re-arms the timer.
    func subscriptionsChanged() {
        guard !journal.state.subscriptions(accountID: configuration.account.id).isEmpty else { return }
        fanOut.send(.subscriptionsChanged)
        scheduleNextRenewal()
    }

    /// Sleeps on the store clock until the next period, grace or billing-retry end.
    private func scheduleNextRenewal() {
        renewalTimer?.cancel()
        let desk = subscriptionDesk(for: journal.state, at: configuration.clock.now)
        guard let next = desk.nextWake(accountID: configuration.account.id, state: journal.state) else { return }
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
}
