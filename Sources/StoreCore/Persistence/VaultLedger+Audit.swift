import Foundation
internal import Vault

/// What `Store.auditLedger()` and `storefront history` read of the vault ledger: the digest of
/// its transaction IDs (kept in the same atomic write as each record), the last harmless audit
/// difference, and the transactions' listing rows.
extension VaultLedger {
    /// From the aggregates: one item, whatever the history's length.
    public func transactionDigest() throws(LedgerError) -> TransactionDigest {
        try ensureAggregates()
        return try guarded { try vault.get(service: Self.ledgerService, account: Self.digestAccount) }
            .flatMap { TransactionDigest(String(decoding: $0.data, as: UTF8.self)) } ?? TransactionDigest()
    }

    public func auditBaseline() throws(LedgerError) -> TransactionDigest? {
        try guarded { try vault.get(service: Self.ledgerService, account: Self.baselineAccount) }
            .flatMap { TransactionDigest(String(decoding: $0.data, as: UTF8.self)) }
    }

    public func saveAuditBaseline(_ baseline: TransactionDigest) throws(LedgerError) {
        try guarded {
            try vault.modify(service: Self.ledgerService, account: Self.baselineAccount) { _ in
                .put(VaultItemContent(data: Data(baseline.description.utf8)))
            }
        }
    }

    /// Decodes only the summaries' members of each item, by `TransactionSummaryScanner`, from a
    /// view of each decrypted record, and keeps them with the record's order in the vault's
    /// derived cache (`SummaryCacheRow`, `Vault.forEachDerived`): the next listing reads the
    /// kept rows of the records the cache covers instead of those records (issue 13).
    public func transactionSummaries() throws(LedgerError) -> [TransactionSummary] {
        let decoder = JSONDecoder()
        var strings = TransactionSummaryScanner.Strings()
        var summaries: [TransactionSummary] = []
        var keys: [(order: UInt64, date: Date, index: Int)] = []
        // At most one a vault item: room made once (untouched room costs no memory), not
        // grown (each growth copies into fresh pages).
        let items = try guarded { try vault.status().items }
        summaries.reserveCapacity(items)
        keys.reserveCapacity(items)
        try guarded {
            try vault.forEachDerived(service: Self.transactionsService, derivation: SummaryCacheRow.derivation) {
                item, row in
                do {
                    let summary = try TransactionSummaryScanner.decode(item.data, fallback: decoder, strings: &strings)
                    SummaryCacheRow.append(summary, order: Self.order(item.attribute("order")), to: &row)
                } catch {
                    throw LedgerError.corrupt(
                        path: vault.path, reason: "transaction \(item.account) is unreadable: \(error)")
                }
            } _: { row in
                guard let (summary, order) = SummaryCacheRow.read(row, strings: &strings) else {
                    throw LedgerError.corrupt(
                        path: vault.path, reason: "a transaction summary the vault kept is unreadable")
                }
                keys.append((order, summary.purchaseDate, summaries.count))
                summaries.append(summary)
            }
        }
        // `sortedTransactions`' order. The vault hands them over in file order, which is nearly
        // always that order already; then nothing is moved.
        func precedes(
            _ a: (order: UInt64, date: Date, index: Int), _ b: (order: UInt64, date: Date, index: Int)
        ) -> Bool {
            (a.order, a.date, summaries[a.index].transactionID) < (b.order, b.date, summaries[b.index].transactionID)
        }
        if zip(keys, keys.dropFirst()).allSatisfy({ !precedes($1, $0) }) { return summaries }
        keys.sort(by: precedes)
        return keys.map { summaries[$0.index] }
    }

    /// The digest kept in `batch` (empty when none is).
    static func digest(in batch: VaultBatch) throws -> TransactionDigest {
        try batch.get(service: ledgerService, account: digestAccount).flatMap {
            TransactionDigest(String(decoding: $0.data, as: UTF8.self))
        }
            ?? TransactionDigest()
    }

    static func put(_ digest: TransactionDigest, as account: String, in batch: inout VaultBatch) {
        batch.put(service: ledgerService, account: account, VaultItemContent(data: Data(digest.description.utf8)))
    }
}
