import Foundation

/// Lost orders: purchases the customer paid for whose verification could not complete. They
/// wait in the ledger (with the receipt of their time) and stay unfinished at the store, so
/// nothing is lost; the app lists, retries and removes them here, as RNInAppPurchaseModule's
/// `iapUnverifyOrdersArray` and `removePurchase` do.
extension Store {
    /// Purchases still waiting for verification, oldest first.
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func unverifiedOrders() async throws(LedgerError) -> [UnverifiedOrder] {
        try await ledger.perform { ledger throws(LedgerError) in try ledger.unverifiedOrders() }
    }

    /// Verifies again every purchase whose verification could not complete earlier; each is
    /// delivered once verified, failed once rejected, and kept while still unverifiable.
    /// `start()` calls it.
    /// - Returns: the outcome of each order, in the order they were kept.
    @discardableResult
    public func retryUnverifiedOrders() async -> [PurchaseResult] {
        guard let orders = try? await unverifiedOrders() else { return [] }
        var results: [PurchaseResult] = []
        for order in orders {
            if let result = await process(order.transaction) { results.append(result) }
        }
        return results
    }

    /// Verifies one unverified order again.
    /// - Parameter transactionID: the order's transaction.
    /// - Returns: `.purchased` once verified (recorded and finished), `.failed` when rejected,
    ///   `.unverified` while verification still cannot complete.
    /// - Throws: `StoreError.unknownTransaction` when no such order waits;
    ///   `.persistenceFailed` when the ledger cannot be read.
    public func retryUnverifiedOrder(transactionID: String) async throws(StoreError) -> PurchaseResult {
        let order = try await unverifiedOrder(transactionID)
        guard let result = await process(order.transaction) else {
            // Kept in a state the pipeline does not settle: it is still an unverified order.
            return .unverified(order)
        }
        return result
    }

    /// Gives up on an unverified order: finishes its transaction at the store (which then
    /// stops delivering it) and forgets the order. Nothing is recorded as delivered.
    /// - Parameter transactionID: the order's transaction.
    /// - Throws: `StoreError.unknownTransaction` when no such order waits; the store's error
    ///   when it cannot finish the transaction (the order is kept); `.persistenceFailed` when
    ///   the ledger cannot forget it.
    public func removeUnverifiedOrder(transactionID: String) async throws(StoreError) {
        let order = try await unverifiedOrder(transactionID)
        do {
            try await backend.finish(transactionID: transactionID)
        } catch .unknownTransaction {
            // Already finished (by another process, or before a crash): nothing left to do there.
        }
        do {
            try await ledger.perform { ledger throws(LedgerError) in
                try ledger.removeUnverifiedOrder(transactionID: transactionID)
            }
        } catch {
            throw .persistenceFailed(error)
        }
        endRequest(order.transaction.payment.requestID)
    }

    /// The unverified order of `transactionID`.
    private func unverifiedOrder(_ transactionID: String) async throws(StoreError) -> UnverifiedOrder {
        let orders: [UnverifiedOrder]
        do {
            orders = try await unverifiedOrders()
        } catch {
            throw .persistenceFailed(error)
        }
        guard let order = orders.first(where: { $0.transaction.transactionID == transactionID }) else {
            throw .unknownTransaction(transactionID)
        }
        return order
    }
}
