/// Lost purchases are never shown as fewer purchases: the ledger is compared with what the
/// store says this app finished, and what a restore can give back is restored.
extension Store {
    /// Compares the ledger with the store's record of the transactions this app finished.
    /// - Returns: the audit, or nil when the backend cannot list finished transactions.
    /// - Throws: `StoreError` when the store or the ledger cannot be read.
    public func auditLedger() async throws(StoreError) -> LedgerAudit? {
        guard let finished = try await backend.finishedTransactions() else { return nil }
        let recorded: [Transaction]
        do {
            recorded = try ledger.transactions()
        } catch {
            throw .persistenceFailed("\(error)")
        }
        let ids = Set(recorded.map(\.transactionID))
        let originals = Set(recorded.map(\.originalTransactionID))
        return LedgerAudit(missing: finished.filter { transaction in
            if ids.contains(transaction.transactionID) { return false }
            return transaction.productType == .consumable || !originals.contains(transaction.originalTransactionID)
        })
    }

    /// Restores what the store can give back of `audit`'s missing transactions (its
    /// non-consumables and subscriptions, as `restoreTransactions()` does).
    /// - Returns: the restored transactions; none when nothing restorable is missing.
    /// - Throws: `StoreError` from the restore.
    public func recoverLostPurchases(_ audit: LedgerAudit) async throws(StoreError) -> [Transaction] {
        guard !audit.restorable.isEmpty else { return [] }
        return try await restoreTransactions()
    }
}
