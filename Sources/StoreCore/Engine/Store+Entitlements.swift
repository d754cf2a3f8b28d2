import Foundation

/// What the account owns, from the ledger: purchased products, consumable balances, the
/// delivered history, entitlements and subscription statuses (reported when they change).
extension Store {
    // MARK: - What the user owns

    /// Whether a non-consumable or subscription was ever delivered (and not revoked).
    public func isPurchased(_ productID: String) throws -> Bool {
        try ledger.transactions().contains { $0.productID == productID && $0.revocationDate == nil }
    }

    /// The products delivered at least once.
    public func purchasedProductIDs() throws -> Set<String> {
        Set(try ledger.transactions().filter { $0.revocationDate == nil }.map(\.productID))
    }

    /// Units of a consumable bought and not yet consumed.
    public func count(of productID: String) throws -> Int { try ledger.balance(of: productID) }

    /// Uses up units of a consumable and returns the balance left.
    public func consume(_ productID: String, quantity: Int = 1) throws -> Int {
        try ledger.consume(productID: productID, quantity: quantity)
    }

    /// Every delivered transaction, oldest first.
    public func history() throws -> [Transaction] { try ledger.transactions() }

    /// Consumable balances by product ID.
    public func balances() throws -> [String: Int] { try ledger.balances() }

    // MARK: - Entitlements

    /// Everything the account has at `now` (the engine's clock when nil): non-consumables,
    /// active or in-grace subscriptions, unexpired non-renewing subscriptions; never refunded
    /// or revoked items.
    public func currentEntitlements(at now: Date? = nil) async throws -> [Entitlement] {
        let records = try ledger.entitlementTransactions().map(PurchaseRecord.init)
        return configuration.entitlements.currentEntitlements(
            records: records, renewalInfo: await backend.renewalInfo(), at: now ?? configuration.clock.now)
    }

    /// The status of every subscription group the account ever subscribed to, at `now`.
    public func subscriptionStatuses(at now: Date? = nil) async throws -> [SubscriptionStatus] {
        let records = try ledger.entitlementTransactions().map(PurchaseRecord.init)
        return configuration.entitlements.statuses(
            records: records, renewalInfo: await backend.renewalInfo(), at: now ?? configuration.clock.now)
    }

    /// Whether a product was purchased and not refunded, from the delivered transactions.
    public func verifyPurchase(_ productID: String) throws -> PurchaseQueries.PurchaseResult {
        PurchaseQueries.verifyPurchase(productID: productID, in: try ledger.transactions().map(PurchaseRecord.init))
    }

    /// Whether any of `productIDs` is subscribed at `now`, from the delivered transactions.
    public func verifySubscriptions(
        _ kind: PurchaseQueries.SubscriptionKind, productIDs: Set<String>, at now: Date? = nil
    ) throws -> PurchaseQueries.SubscriptionResult {
        PurchaseQueries.verifySubscriptions(
            kind, productIDs: productIDs, in: try ledger.transactions().map(PurchaseRecord.init),
            at: now ?? configuration.clock.now)
    }

    /// Whether the account may still take the introductory offer of the subscription group
    /// `groupID` (StoreKit 2's `isEligibleForIntroOffer`), from the delivered transactions.
    public func isEligibleForIntroOffer(groupID: String) throws -> Bool {
        PurchaseQueries.isEligibleForIntroOffer(groupID: groupID, in: try ledger.transactions().map(PurchaseRecord.init))
    }

    /// Reports each subscription group whose state changed since it was last reported.
    func publishStatusChanges() async {
        guard let statuses = try? await subscriptionStatuses() else { return }
        for status in statusChanges.changes(in: statuses) {
            broadcaster.send(.subscriptionStatusChanged(status))
        }
    }
}
