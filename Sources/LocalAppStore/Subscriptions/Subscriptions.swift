import Foundation
import StoreCore

/// The subscription lifecycle, the store's side of auto-renewable subscriptions as time
/// passes: renewals on the store clock (journaled as they fall due, a timer set for the next),
/// a change of the time rate, the account's subscriptions and renewal info, and the verbs that
/// move a subscription (`SubscriptionCommands.swift`: renew, expire, cancel, billing issue;
/// `PriceIncreases.swift`: a price increase and the customer's consent). The rules are the
/// `SubscriptionDesk`'s and each `SubscriptionLifecycle`'s; this part journals them. Reach it
/// as `store.subscriptions`.
public struct Subscriptions: Sendable {
    let store: LocalAppStore

    /// The account's subscriptions as the store sees them, oldest first.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func all() async throws(LocalAppStoreError) -> [SubscriptionLifecycle] {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            return store.state.subscriptions(accountID: store.accountID).map(\.lifecycle)
        }
    }

    /// The account's subscriptions as the store sees them, oldest first, each with the price
    /// increase announced in its current period (pending, accepted or declined), from one read
    /// of the journal: what the Transaction Manager's rows say of the next renewal. One
    /// announced in an earlier period was settled at that period's end and is not given.
    /// - Throws: the journal's read errors, as `all()` does.
    public func allWithPriceIncreases() async throws(LocalAppStoreError)
        -> [(lifecycle: SubscriptionLifecycle, priceIncrease: PriceIncrease?)]
    {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            let state = store.state
            return state.subscriptions(accountID: store.accountID).map {
                ($0.lifecycle, state.currentPriceIncrease(of: $0))
            }
        }
    }

    // MARK: - On the store's executor

    /// The subscription rules for a change made at `now` under `state`'s settings.
    static func desk(for state: JournalState, at now: Date, in store: isolated LocalAppStore) -> SubscriptionDesk {
        ChargingRules(localizer: store.localizer, now: now).subscriptionDesk(for: state)
    }

    /// Renewal info for each of the account's subscriptions, and for each a family member
    /// shares with it (`SharedRenewal`), as of the store clock's now (a period that ended since
    /// the last renewal was journaled counts as ended), signed.
    static func renewalInfo(in store: isolated LocalAppStore) -> [RenewalInfo] {
        let now = store.configuration.clock.now
        let state = store.state
        let desk = desk(for: state, at: now, in: store)
        let receipts = store.receipts
        let own = state.subscriptions(accountID: store.accountID).map { ($0, String?.none) }
        let shared = SharedRenewal.shared(with: store.accountID, in: state).map { ($0.0, Optional($0.1)) }
        return (own + shared).map { stored, memberOriginalTransactionID in
            var lifecycle = stored.lifecycle
            _ = lifecycle.advance(
                to: now, rate: desk.rate, gracePeriodEnabled: desk.settings.gracePeriod,
                billingFails: desk.settings.billingRetryOnRenewal,
                lacksPriceConsent: state.lacksPriceConsent(stored), period: desk.period(of:))
            var info = lifecycle.renewalInfo(at: now)
            var details = LocalReceiptIssuer.RenewalDetails(
                info, of: stored, in: state, catalog: store.configuration.catalog,
                fallbackStorefront: store.localizer.storefront)
            info.commitmentInfo?.renewalPrice = details.commitmentRenewalPrice
            if let memberOriginalTransactionID {
                SharedRenewal.memberView(&info, &details, memberOriginalTransactionID: memberOriginalTransactionID)
            }
            info.signedRenewalInfo = receipts.signedRenewalInfo(
                info, details: details, settings: state.settings, now: now)
            return info
        }
    }

    /// Journals every renewal that fell due, in order, tells listeners, and sets the timer for
    /// the next one. Renewals that fell due while no process ran are delivered this way at start.
    static func advance(in store: isolated LocalAppStore) {
        let account = store.accountID
        let desk = desk(for: store.state, at: store.configuration.clock.now, in: store)
        // Only a running subscription can fall due: without one (a store of consumables), the
        // look does not take the write lock that every process's purchases queue behind.
        if store.state.subscriptions(accountID: account).contains(where: { !$0.lifecycle.isExpired }) {
            let result = try? store.transact { state throws(LocalAppStoreError) in
                (desk.advance(accountID: account, state: &state), ())
            }
            if let changed = result?.changed { store.announce(changed) }
        }
        changed(in: store)
    }

    /// The records that change the time rate to `settings.storeTimeRate`: renewals that fell
    /// due at the old rate are journaled first, at the old rate; then a current period that
    /// would outlast one period at a faster new rate ends one new period from now (its
    /// transaction back in the queue with the new expiry), so the new pace shows at once.
    static func timeRateChange(
        to settings: LocalStoreSettings, accountID account: String, rules: ChargingRules, state: inout JournalState
    ) -> [JournalRecord] {
        let now = rules.now
        var records = rules.subscriptionDesk(for: state).advance(accountID: account, state: &state)
        records.append(JournalRecord.make(settings))
        for record in records { _ = state.apply(record) }
        let desk = rules.subscriptionDesk(for: state)
        for var stored in state.subscriptions(accountID: account)
        where !stored.lifecycle.isExpired && stored.lifecycle.billingRetryStart == nil {
            guard let period = stored.lifecycle.billingPeriod(desk.period(of:)) else { continue }
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
    static func changed(in store: isolated LocalAppStore) {
        guard !store.state.subscriptions(accountID: store.accountID).isEmpty else { return }
        store.send(.subscriptionsChanged)
        scheduleNextRenewal(in: store)
    }

    /// Sleeps on the store clock until the next period, grace or billing-retry end.
    private static func scheduleNextRenewal(in store: isolated LocalAppStore) {
        let desk = desk(for: store.state, at: store.configuration.clock.now, in: store)
        guard let next = desk.nextWake(accountID: store.accountID, state: store.state) else {
            store.renewalTimer.cancel()
            return
        }
        let clock = store.configuration.clock
        store.renewalTimer.set(
            Task { [weak store] in
                do {
                    try await clock.sleep(until: next)
                } catch {
                    return
                }
                guard !Task.isCancelled, let store else { return }
                await advance(in: store)
            })
    }
}

extension LocalAppStore {
    /// The subscription lifecycle: the account's subscriptions, renewals, and the verbs that
    /// move a subscription (renew, expire, cancel, billing issue, price increase).
    public nonisolated var subscriptions: Subscriptions { Subscriptions(store: self) }
}
