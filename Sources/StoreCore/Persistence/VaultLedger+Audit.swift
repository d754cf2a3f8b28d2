import Foundation
import Vault

/// What `Store.auditLedger()` and `storefront history` read of the vault ledger: the digest of
/// its transaction IDs (kept in the same atomic write as each record), the last harmless audit
/// difference, and the transactions' listing rows.
extension VaultLedger {
    /// From the aggregates: one item, whatever the history's length.
    public func transactionDigest() throws -> TransactionDigest {
        try ensureAggregates()
        return try guarded { try vault.get(service: Self.ledgerService, account: Self.digestAccount) }
            .flatMap { TransactionDigest(String(decoding: $0.data, as: UTF8.self)) } ?? TransactionDigest()
    }

    public func auditBaseline() throws -> TransactionDigest? {
        try guarded { try vault.get(service: Self.ledgerService, account: Self.baselineAccount) }
            .flatMap { TransactionDigest(String(decoding: $0.data, as: UTF8.self)) }
    }

    public func saveAuditBaseline(_ baseline: TransactionDigest) throws {
        try guarded {
            try vault.modify(service: Self.ledgerService, account: Self.baselineAccount) { _ in
                .put(VaultItemContent(data: Data(baseline.description.utf8)))
            }
        }
    }

    /// Decodes only the summaries' members of each item, as the vault reads them (in file
    /// order, none kept: a listing reads each once), by `TransactionSummaryScanner`.
    public func transactionSummaries() throws -> [TransactionSummary] {
        let decoder = JSONDecoder()
        var listed: [(order: UInt64, summary: TransactionSummary)] = []
        try guarded {
            try vault.forEachItem(service: Self.transactionsService) { item in
                do {
                    listed.append((Self.order(item), try TransactionSummaryScanner.decode(item.data, fallback: decoder)))
                } catch {
                    throw LedgerError.corrupt(path: vault.path, reason: "transaction \(item.account) is unreadable: \(error)")
                }
            }
        }
        // `sortedTransactions`' order (sorted in place: a long history is copied once, by `map`).
        listed.sort { a, b in
            (a.order, a.summary.purchaseDate, a.summary.transactionID) < (b.order, b.summary.purchaseDate, b.summary.transactionID)
        }
        return listed.map(\.summary)
    }

    /// The digest kept in `batch` (empty when none is).
    static func digest(in batch: VaultBatch) throws -> TransactionDigest {
        try batch.get(service: ledgerService, account: digestAccount).flatMap { TransactionDigest(String(decoding: $0.data, as: UTF8.self)) }
            ?? TransactionDigest()
    }

    static func put(_ digest: TransactionDigest, as account: String, in batch: inout VaultBatch) {
        batch.put(service: ledgerService, account: account, VaultItemContent(data: Data(digest.description.utf8)))
    }
}
