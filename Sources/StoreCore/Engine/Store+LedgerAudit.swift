/// Lost purchases are never shown as fewer purchases: the ledger is compared with what the
/// store says this app finished, and what a restore can give back is restored.
extension Store {
    /// Compares the ledger with the store's record of the transactions this app finished.
    ///
    /// The common case costs the same whatever the history's length: both sides keep a
    /// `TransactionDigest` of their IDs, and equal digests (or a difference equal to the one
    /// the last full audit found harmless, `PurchaseLedger.auditBaseline()`) mean nothing is
    /// missing. Only a mismatch reads both lists in full and compares them ID by ID.
    /// - Returns: the audit, or nil when the backend cannot list finished transactions.
    /// - Throws: `StoreError` when the store or the ledger cannot be read.
    public func auditLedger() async throws(StoreError) -> LedgerAudit? {
        if let storeDigest = try await backend.finishedTransactionsDigest() {
            let (ledgerDigest, baseline) = try await readingLedger { ledger throws(LedgerError) in
                (try ledger.transactionDigest(), try ledger.auditBaseline())
            }
            if storeDigest == ledgerDigest || baseline == storeDigest - ledgerDigest { return LedgerAudit(missing: []) }
        }
        return try await fullLedgerAudit()
    }

    /// Compares the two lists ID by ID; when nothing is missing, keeps the difference of their
    /// digests as the ledger's audit baseline.
    func fullLedgerAudit() async throws(StoreError) -> LedgerAudit? {
        guard let finished = try await backend.finishedTransactions() else { return nil }
        let recorded = try await readingLedger { ledger throws(LedgerError) in try ledger.transactions() }
        let ids = Set(recorded.map(\.transactionID))
        let originals = Set(recorded.map(\.originalTransactionID))
        let audit = LedgerAudit(
            missing: finished.filter { transaction in
                if ids.contains(transaction.transactionID) { return false }
                return transaction.productType == .consumable || !originals.contains(transaction.originalTransactionID)
            })
        if audit.isComplete {
            // From the lists just compared, so that the baseline is what this audit saw. A
            // ledger that cannot keep it only compares in full again next time.
            let baseline =
                TransactionDigest(ids: finished.map(\.transactionID))
                - TransactionDigest(ids: recorded.map(\.transactionID))
            if baseline != TransactionDigest() {
                try? await ledger.perform { ledger throws(LedgerError) in
                    if try ledger.auditBaseline() != baseline { try ledger.saveAuditBaseline(baseline) }
                }
            }
        }
        return audit
    }

    private func readingLedger<T: Sendable>(
        _ body: @escaping @Sendable (any PurchaseLedger) throws(LedgerError) -> T
    ) async throws(StoreError) -> T {
        do {
            return try await ledger.perform(body)
        } catch {
            throw .persistenceFailed(error)
        }
    }

    /// Restores what the store can give back of `audit`'s missing transactions (its
    /// non-consumables and subscriptions, non-renewing ones too, as `sync()` does).
    /// - Returns: the restored transactions; none when nothing restorable is missing.
    /// - Throws: `StoreError` from the restore.
    public func recoverLostPurchases(_ audit: LedgerAudit) async throws(StoreError) -> [Transaction] {
        guard !audit.restorable.isEmpty else { return [] }
        return try await restore(applicationUsername: nil, scope: .sync)
    }
}
