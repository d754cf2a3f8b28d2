import Foundation

/// What the account is entitled to, from the ledger: entitlements, subscription statuses
/// (reported when they change), SwiftyStoreKit's purchase and subscription questions, and
/// intro-offer eligibility. What it owns item by item is in `Store+Ledger.swift`.
extension Store {
    // MARK: - Entitlements

    /// Everything the account has at `now` (the engine's clock when nil): non-consumables,
    /// active or in-grace subscriptions, the latest transaction of each non-renewing
    /// subscription (until `StoreConfiguration.entitlements`' duration for it ends, when it
    /// sets one); never refunded or revoked items.
    public func currentEntitlements(at now: Date? = nil) async throws(LedgerError) -> [Entitlement] {
        // The time of the question, not of the ledger's answer (the clock moves meanwhile).
        let now = now ?? configuration.clock.now
        let records = try await entitlementRecords()
        return configuration.entitlements.currentEntitlements(
            records: records, renewalInfo: await backend.renewalInfo(), at: now)
    }

    /// The status of every subscription group the account ever subscribed to, at `now` (the
    /// engine's clock when nil).
    public func subscriptionStatuses(at now: Date? = nil) async throws(LedgerError) -> [SubscriptionStatus] {
        let now = now ?? configuration.clock.now
        let records = try await ledger.perform { ledger throws(LedgerError) in try ledger.subscriptionTransactions() }
            .map(PurchaseRecord.init)
        return configuration.entitlements.statuses(
            records: records, renewalInfo: await backend.renewalInfo(), at: now)
    }

    /// `subscriptionStatuses` with closures, for apps written in RMStore's shape.
    /// - Parameters:
    ///   - now: the moment the statuses are for (the engine's clock when nil).
    ///   - success: called with every group's status, each with its transaction and renewal info.
    ///   - failure: called with `.persistenceFailed` when the ledger cannot be read.
    public nonisolated func subscriptionStatuses(
        at now: Date? = nil, success: @escaping @Sendable ([SubscriptionStatus]) -> Void,
        failure: @escaping @Sendable (StoreError) -> Void
    ) {
        callingBack(success: success, failure: failure) { () async throws(StoreError) in
            do throws(LedgerError) {
                return try await self.subscriptionStatuses(at: now)
            } catch {
                throw .persistenceFailed(error)
            }
        }
    }

    /// Whether a product was purchased and not refunded, from the delivered transactions
    /// (SwiftyStoreKit's `verifyPurchase`).
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func verifyPurchase(_ productID: String) async throws(LedgerError) -> PurchaseQueries.PurchaseResult {
        PurchaseQueries.verifyPurchase(productID: productID, in: try await history().map(PurchaseRecord.init))
    }

    /// Whether any of `productIDs` is subscribed at `now` (the engine's clock when nil), from
    /// the delivered transactions (SwiftyStoreKit's `verifySubscriptions`).
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func verifySubscriptions(
        _ kind: PurchaseQueries.SubscriptionKind, productIDs: Set<String>, at now: Date? = nil
    ) async throws(LedgerError) -> PurchaseQueries.SubscriptionResult {
        let records = try await history().map(PurchaseRecord.init)
        return PurchaseQueries.verifySubscriptions(
            kind, productIDs: productIDs, in: records, at: now ?? configuration.clock.now)
    }

    /// Whether the account may still take the introductory offer of the subscription group
    /// `groupID` (StoreKit 2's `isEligibleForIntroOffer`), from the delivered transactions.
    public func isEligibleForIntroOffer(groupID: String) async throws(LedgerError) -> Bool {
        PurchaseQueries.isEligibleForIntroOffer(groupID: groupID, in: try await history().map(PurchaseRecord.init))
    }

    /// The records entitlements and statuses are computed from (`PurchaseLedger.entitlementTransactions()`).
    private func entitlementRecords() async throws(LedgerError) -> [PurchaseRecord] {
        try await ledger.perform { ledger throws(LedgerError) in try ledger.entitlementTransactions() }.map(
            PurchaseRecord.init)
    }

    /// Reports each subscription group whose state at `now` (the engine's clock when nil)
    /// changed since it was last reported. Reports run one at a time, in the order asked, each
    /// at the time it was asked: a report reads the ledger off the actor, and a later report
    /// overtaking an earlier one would skip a state (`expired` without `subscribed` before it).
    func publishStatusChanges(at now: Date? = nil) async {
        let now = now ?? configuration.clock.now
        let previous = statusReport
        let report = Task {
            await previous?.value
            guard let statuses = try? await subscriptionStatuses(at: statusChanges.reportTime(for: now)) else { return }
            for status in statusChanges.changes(in: statuses) {
                broadcaster.send(.subscriptionStatusChanged(status))
            }
        }
        statusReport = report
        await report.value
    }
}
