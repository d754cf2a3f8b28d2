import Foundation
import StoreCore

/// The verbs that move a subscription (Xcode's Transaction Manager's force renewal, expire,
/// cancel, billing issue): each finds the subscription, changes its lifecycle under the write
/// lock through the `SubscriptionDesk`, and re-queues the transactions it changes, so an app
/// that is not running gets the change at its next start.
extension Subscriptions {
    /// Renews a subscription now (Xcode's "force renewal"): a new period starts at once. While
    /// billing fails (`setBillingIssue(on: true)` or the billing-retry setting) the renewal
    /// fails instead, as it would on the store clock: the period ends now and billing retry
    /// begins, in a grace period when the grace-period setting is on. A price increase the
    /// customer did not consent to (`priceIncrease`) makes it expire now instead
    /// (`EXPIRED`/`PRICE_INCREASE`), as the renewal date would.
    /// A subscription whose auto-renew is off is never renewed (Apple renews only what will
    /// auto-renew): it is refused, and nothing changes; inside a 12-month commitment the next
    /// month is renewed whatever auto-renew says, as the store clock would.
    /// - Parameter id: a transaction ID of the subscription, or its product ID.
    /// - Throws: `.notPending` for an expired subscription, one whose auto-renew is off, or one
    ///   in billing retry whose billing still fails.
    @discardableResult
    public func renew(_ id: String) async throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try await change(id) { stored, desk, state throws(LocalAppStoreError) in
            guard !stored.lifecycle.isExpired, desk.period(of: stored.lifecycle.autoRenewProductID) != nil else {
                throw .notPending(
                    transactionID: id, state: "expired", expected: "an active subscription (buy it again)")
            }
            guard stored.lifecycle.willAutoRenew || stored.lifecycle.isInCommitment else {
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
            let events = stored.lifecycle.renewNow(at: desk.now, rate: desk.rate, period: desk.period(of:)) ?? []
            return ended + desk.renewals(events, for: &stored, state: &state)
        }
    }

    /// Ends a subscription now: its current period's transaction expires at once.
    @discardableResult
    public func expire(_ id: String) async throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try await change(id) { stored, desk, state throws(LocalAppStoreError) in
            try Self.requireActive(stored, id, expected: "an active subscription")
            _ = stored.lifecycle.expireNow(at: desk.now, intent: .cancelled)
            return SubscriptionDesk.endLatestPeriod(of: stored, at: desk.now, state: state)
        }
    }

    /// Turns auto-renew off (`on: false`, the customer cancels: access to the end of the period)
    /// or back on.
    @discardableResult
    public func setAutoRenew(_ id: String, on: Bool) async throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try await change(id) { stored, _, _ throws(LocalAppStoreError) in
            try Self.requireActive(stored, id)
            stored.lifecycle.willAutoRenew = on
            return []
        }
    }

    /// Chooses what a subscription renews into, as the customer's Manage Subscriptions sheet
    /// does: `productID` (a subscription of the same group) paid by `plan`, at the end of the
    /// current commitment (or, without one, of the current period). Auto-renew is turned on.
    /// - Parameters:
    ///   - id: a transaction ID of the subscription, or its product ID.
    ///   - productID: the product to renew into; nil keeps the one it renews into now.
    ///   - plan: the plan to renew by; nil keeps the one it renews by now.
    /// - Throws: `.notPending` for an expired subscription; `.refused(.paymentInvalid)` naming
    ///   the product and the plan when the product is not of the group or not sold by the plan.
    @discardableResult
    public func setRenewal(
        _ id: String, productID: String?, plan: BillingPlanType?
    ) async throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try await change(id) { stored, desk, _ throws(LocalAppStoreError) in
            guard !stored.lifecycle.isExpired else {
                throw .notPending(
                    transactionID: id, state: "expired", expected: "an active subscription (buy it again)")
            }
            let target = productID ?? stored.lifecycle.autoRenewProductID
            guard let product = desk.catalog.product(id: target),
                product.subscription?.groupID == stored.lifecycle.groupID
            else {
                throw .refused(
                    .paymentInvalid("\(target) is not a subscription of the group \(stored.lifecycle.groupID)"))
            }
            // A plan carried over from the product renewed into now means nothing to a product
            // the catalog sells without plans; one named for it is refused.
            let sellsByPlans = !(product.subscription?.billingPlans.isEmpty ?? true)
            let type = plan ?? (sellsByPlans ? stored.lifecycle.renewalBillingPlanType : nil)
            if let type {
                do throws(StoreError) {
                    _ = try desk.plans.plan(for: Payment(productID: target, billingPlanType: type), of: product)
                } catch {
                    throw .refused(error)
                }
            }
            stored.lifecycle.autoRenewProductID = target
            stored.lifecycle.renewalBillingPlanType = type
            stored.lifecycle.willAutoRenew = true
            return []
        }
    }

    /// Turns a billing problem on for a subscription (its renewals fail and enter billing
    /// retry), or off (resolved: a subscription in billing retry renews at once).
    @discardableResult
    public func setBillingIssue(_ id: String, on: Bool) async throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try await change(id) { stored, desk, state throws(LocalAppStoreError) in
            try Self.requireActive(stored, id)
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
    /// Refuses a change of an expired subscription.
    /// - Throws: `.notPending` naming `id`, saying what was `expected`.
    static func requireActive(
        _ stored: StoredSubscription, _ id: String, expected: String = "an active subscription (buy it again)"
    ) throws(LocalAppStoreError) {
        guard !stored.lifecycle.isExpired else {
            throw .notPending(transactionID: id, state: "expired", expected: expected)
        }
    }

    private func change(
        _ id: String,
        _ body:
            @Sendable (inout StoredSubscription, SubscriptionDesk, inout JournalState) throws(LocalAppStoreError) ->
            [JournalRecord]
    ) async throws(LocalAppStoreError) -> StoreCore.Transaction? {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            let desk = Self.desk(for: store.state, at: store.configuration.clock.now, in: store)
            let (latest, changed) = try store.transact { state throws(LocalAppStoreError) in
                guard let group = state.subscriptionGroup(named: id, accountID: account),
                    var stored = state.subscription(accountID: account, groupID: group)
                else { throw .unknownTransaction(id) }
                var records = try body(&stored, desk, &state)
                records.append(JournalRecord.make(stored))
                return (records, stored.latestTransactionID)
            }
            store.announceRevisions(changed)
            Self.changed(in: store)
            return store.state.entries[latest].map { store.signed([$0.transaction])[0] }
        }
    }
}

extension JournalState {
    /// The group of the account's subscription that `id` names: a transaction ID of it, or the
    /// product ID it is or renews into (the latest such subscription).
    func subscriptionGroup(named id: String, accountID account: String) -> String? {
        entries[id].flatMap { $0.accountID == account ? $0.transaction.subscriptionGroupID : nil }
            ?? subscriptions(accountID: account).last {
                $0.lifecycle.productID == id || $0.lifecycle.autoRenewProductID == id
            }?.lifecycle.groupID
    }
}
