import Foundation

/// What the account owns, item by item, from the ledger: the questions RMStore's persistors
/// (`RMStoreKeychainPersistence`, `RMStoreUserDefaultsPersistence`) answer, and the removals
/// they allow.
extension Store {
    // MARK: - What the user owns

    /// Whether the account has `productID` at `date` (the engine's clock when nil): a
    /// non-consumable not revoked, or a subscription active then (an auto-renewable one active
    /// or in its grace period, a non-renewing one bought and within the app's duration, if it
    /// sets one: `EntitlementCalculator`). Consumables never
    /// count: ask `count(of:)`.
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func isPurchased(_ productID: String, at date: Date? = nil) async throws(LedgerError) -> Bool {
        try await currentEntitlements(at: date).contains { $0.productID == productID }
    }

    /// How many of `productID` the account has: a consumable's units bought and not yet
    /// consumed; for any other product 1 when `isPurchased`, else 0 (RMStore's
    /// `countProductOfIdentifier`).
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func count(of productID: String) async throws(LedgerError) -> Int {
        let balance = try await ledger.perform { ledger throws(LedgerError) in try ledger.balance(of: productID) }
        if balance > 0 { return balance }
        let delivered = try await transactions(for: productID)
        guard let type = delivered.first?.productType, type != .consumable else { return 0 }
        return try await isPurchased(productID) ? 1 : 0
    }

    /// Uses up units of a consumable and returns the balance left.
    /// - Throws: `LedgerError.insufficientBalance` when fewer units are left.
    public func consume(_ productID: String, quantity: Int = 1) async throws(LedgerError) -> Int {
        try await ledger.perform { ledger throws(LedgerError) in
            try ledger.consume(productID: productID, quantity: quantity)
        }
    }

    /// The products delivered at least once and not revoked, consumables included (RMStore's
    /// `purchasedProductIdentifiers`).
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func purchasedProductIDs() async throws(LedgerError) -> Set<String> {
        Set(try await history().filter { $0.revocationDate == nil }.map(\.productID))
    }

    /// The delivered transactions of `productID`, oldest first (RMStore's
    /// `transactionsForProductOfIdentifier`).
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func transactions(for productID: String) async throws(LedgerError) -> [Transaction] {
        try await history().filter { $0.productID == productID }
    }

    /// Every delivered transaction, oldest first.
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func history() async throws(LedgerError) -> [Transaction] {
        try await ledger.perform { ledger throws(LedgerError) in try ledger.transactions() }
    }

    /// What a listing shows of every delivered transaction, oldest first (`history()`'s order),
    /// decoded without the rest of each transaction.
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func historySummaries() async throws(LedgerError) -> [TransactionSummary] {
        try await ledger.perform { ledger throws(LedgerError) in try ledger.transactionSummaries() }
    }

    /// Consumable balances by product ID (zero balances omitted).
    /// - Throws: `LedgerError` when the ledger cannot be read.
    public func balances() async throws(LedgerError) -> [String: Int] {
        try await ledger.perform { ledger throws(LedgerError) in try ledger.balances() }
    }

    // MARK: - Removing

    /// Forgets one delivered transaction (a consumable's units leave its balance). It no
    /// longer counts as owned; were the store to deliver it again, it would be recorded again.
    /// - Returns: whether the transaction was recorded.
    /// - Throws: `LedgerError` when the ledger cannot be written.
    @discardableResult
    public func removeTransaction(_ transactionID: String) async throws(LedgerError) -> Bool {
        try await ledger.perform { ledger throws(LedgerError) in try ledger.remove(transactionID: transactionID) }
    }

    /// Forgets every delivered transaction and every consumable balance (RMStore's
    /// `removeTransactions`, for a sign-out or a reset); unverified orders stay.
    /// - Throws: `LedgerError` when the ledger cannot be written.
    public func removeAllTransactions() async throws(LedgerError) {
        try await ledger.perform { ledger throws(LedgerError) in try ledger.removeAll() }
    }
}
