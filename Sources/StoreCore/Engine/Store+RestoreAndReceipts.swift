import Foundation

/// Restoring purchases (each restored transaction goes through the pipeline) and the app
/// receipt.
extension Store {
    // MARK: - Restore

    /// Restores as StoreKit 1's `restoreCompletedTransactions()` does, the account's
    /// non-consumables and auto-renewable subscriptions (never consumables or non-renewing
    /// subscriptions), and returns the restored transactions, each verified and recorded.
    /// - Parameter applicationUsername: restore only what this account name bought.
    /// - Throws: `StoreError` from the store.
    public func restoreTransactions(applicationUsername: String? = nil) async throws(StoreError) -> [Transaction] {
        try await restore(applicationUsername: applicationUsername, scope: .completedTransactions)
    }

    /// Restores what a restore of `scope` brings back and returns the restored transactions,
    /// each verified and recorded; announced as `restoreFinished` or `restoreFailed`.
    /// - Parameters:
    ///   - applicationUsername: restore only what this account name bought.
    ///   - scope: StoreKit 1's restore or StoreKit 2's sync.
    /// - Throws: `StoreError` from the store.
    func restore(applicationUsername: String?, scope: RestoreScope) async throws(StoreError) -> [Transaction] {
        restoreInProgress = true
        defer { restoreInProgress = false }
        return try await announcing(finished: StoreEvent.restoreFinished, failed: StoreEvent.restoreFailed) {
            () async throws(StoreError) in
            let transactions = try await backend.restoreCompletedTransactions(
                applicationUsername: applicationUsername, scope: scope)
            var restored: [Transaction] = []
            for transaction in transactions {
                if case .purchased? = await process(transaction) { restored.append(transaction) }
            }
            return restored
        }
    }

    /// `restoreTransactions` with closures; `cancelled` falls back to `failure`.
    /// - Parameters:
    ///   - applicationUsername: restore only what this account name bought.
    ///   - success: called with the restored transactions.
    ///   - failure: called with the store's error.
    ///   - cancelled: called when the user cancelled.
    public nonisolated func restoreTransactions(
        applicationUsername: String? = nil,
        success: @escaping @Sendable ([Transaction]) -> Void,
        failure: @escaping @Sendable (StoreError) -> Void,
        cancelled: (@Sendable () -> Void)? = nil
    ) {
        callingBack(
            success: success,
            failure: { error in
                if error == .paymentCancelled, let cancelled { cancelled() } else { failure(error) }
            }
        ) { () async throws(StoreError) in try await self.restoreTransactions(applicationUsername: applicationUsername)
        }
    }

    // MARK: - Receipts

    /// Asks the store for a fresh app receipt.
    /// - Throws: `StoreError` from the store.
    public func refreshReceipt() async throws(StoreError) -> Data {
        try await announcing(finished: StoreEvent.refreshReceiptFinished, failed: StoreEvent.refreshReceiptFailed) {
            () async throws(StoreError) in try await backend.refreshReceipt()
        }
    }

    /// `refreshReceipt` with closures.
    /// - Parameters:
    ///   - success: called with the fresh receipt.
    ///   - failure: called with the store's error.
    public nonisolated func refreshReceipt(
        success: @escaping @Sendable (Data) -> Void, failure: @escaping @Sendable (StoreError) -> Void
    ) {
        callingBack(success: success, failure: failure) { () async throws(StoreError) in try await self.refreshReceipt()
        }
    }

    /// The app receipt as it is now.
    public func appReceipt() async -> Data? { await backend.appReceipt() }
}
