import Foundation

/// StoreKit 2's `AppStore` and `Storefront` questions: syncing with the store in one call,
/// the storefront and its changes, and a product's latest transaction.
extension Store {
    // MARK: - Syncing

    /// Brings the app up to date with the store in one call, as StoreKit 2's `AppStore.sync()`
    /// does from a "Restore Purchases" button: starts the engine when needed, picks up what
    /// other processes changed, restores the account's non-consumables and subscriptions,
    /// non-renewing ones too (`RestoreScope.sync`, unlike `restoreTransactions`; each verified
    /// and recorded, reported as `restoreFinished`), and reports the subscription statuses
    /// that changed.
    /// - Returns: the restored transactions.
    /// - Throws: `StoreError` from the store's restore.
    @discardableResult
    public func sync() async throws(StoreError) -> [Transaction] {
        await start()
        await backend.synchronize()
        // What other processes changed is delivered before sync returns, not only when the
        // event stream gets to it (each transaction announced once in this process, finished
        // only as the configuration says).
        if let unfinished = try? await backend.unfinishedTransactions() {
            for transaction in unfinished where transaction.state != .purchasing { _ = await process(transaction) }
        }
        let restored = try await restore(applicationUsername: nil, scope: .sync)
        await publishStatusChanges()
        return restored
    }

    // MARK: - The storefront

    /// The storefront the account buys in now (StoreKit 2's `Storefront.current`); nil when
    /// the backend does not say.
    public func storefront() async -> Storefront? { await backend.currentStorefront() }

    /// Each storefront the account moves to from now on (StoreKit 2's `Storefront.updates`),
    /// also reported as `StoreEvent.storefrontChanged`; the engine hears them once started.
    public nonisolated func storefrontUpdates() -> AsyncStream<Storefront> { broadcaster.storefrontUpdates() }

    // MARK: - A product's latest transaction

    /// The latest delivered transaction of `productID` (StoreKit 2's `Transaction.latest(for:)`):
    /// the one purchased last, refunded, expired or upgraded ones included; nil when the
    /// account never had it. Delivered transactions passed the configured verifier before they
    /// were recorded; orders still unverified are `unverifiedOrders()`.
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func latestTransaction(for productID: String) async throws(LedgerError) -> Transaction? {
        try await transactions(for: productID).max { a, b in
            (a.purchaseDate, UInt64(a.transactionID) ?? 0) < (b.purchaseDate, UInt64(b.transactionID) ?? 0)
        }
    }
}
