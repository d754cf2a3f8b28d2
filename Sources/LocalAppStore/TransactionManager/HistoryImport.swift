import Foundation
import StoreCore

/// Importing a history made elsewhere: another store's export, or a benchmark's long history
/// (seeded in one write rather than through a hundred thousand purchases).
extension TransactionManager {
    /// Adds `transactions` to the account's history in one durable write (straight to the
    /// compacted history, `history.dat`, with one compaction), each as charged (restored copies
    /// excepted, as a restore charges nothing) and finished, with a new ID from the store's
    /// counter; an original transaction ID that names a transaction of the batch follows it to
    /// its new ID. Nothing is announced: the transactions are history, not news.
    ///
    /// - Parameters:
    ///   - transactions: purchased or restored transactions, oldest first.
    ///   - signing: whether to sign what is returned (a long import's cost is mostly its
    ///     signatures: an ECDSA signature a transaction).
    /// - Returns: the imported transactions as the store now keeps them, signed unless
    ///   `signing` is false.
    /// - Throws: `.io` when the journal cannot be written; `.notPending` naming a transaction
    ///   that is neither purchased nor restored.
    @discardableResult
    public func importHistory(
        _ transactions: [StoreCore.Transaction], signing: Bool = true
    ) async throws(LocalAppStoreError) -> [StoreCore.Transaction] {
        for transaction in transactions where transaction.state != .purchased && transaction.state != .restored {
            throw .notPending(
                transactionID: transaction.transactionID, state: transaction.state.rawValue,
                expected: "purchased or restored")
        }
        return try await store.perform { store throws(LocalAppStoreError) in
            try Self.importHistory(transactions, signing: signing, in: store)
        }
    }

    /// Moves `transactions` into the history as `importHistory(_:signing:)` says.
    private static func importHistory(
        _ transactions: [StoreCore.Transaction], signing: Bool, in store: isolated LocalAppStore
    ) throws(LocalAppStoreError) -> [StoreCore.Transaction] {
        let account = store.accountID
        let imported = try store.importIntoHistory { state throws(LocalAppStoreError) in
            var newIDs: [String: String] = [:]
            var entries: [QueueEntry] = []
            var imported: [StoreCore.Transaction] = []
            entries.reserveCapacity(transactions.count)
            imported.reserveCapacity(transactions.count)
            for old in transactions {
                let id = state.allocateTransactionID()
                newIDs[old.transactionID] = id
                let original = newIDs[old.originalTransactionID] ?? old.originalTransactionID
                let transaction = StoreCore.Transaction(
                    transactionID: id, originalTransactionID: original, productID: old.productID,
                    productType: old.productType, payment: old.payment, state: old.state,
                    purchaseDate: old.purchaseDate, originalPurchaseDate: old.originalPurchaseDate,
                    expiresDate: old.expiresDate, revocationDate: old.revocationDate,
                    revocationReason: old.revocationReason, webOrderLineItemID: old.webOrderLineItemID,
                    price: old.price, currencyCode: old.currencyCode, storefront: old.storefront,
                    subscriptionGroupID: old.subscriptionGroupID, isUpgraded: old.isUpgraded,
                    offerType: old.offerType, offerID: old.offerID)
                entries.append(
                    QueueEntry(
                        transaction: transaction, accountID: account, charged: transaction.state == .purchased,
                        finished: true, pending: nil, owner: nil))
                imported.append(transaction)
            }
            return (entries, imported)
        }
        return signing ? store.signed(imported) : imported
    }
}
