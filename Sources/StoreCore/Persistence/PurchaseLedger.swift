import Foundation

/// Where the engine records what the user bought, before it finishes a transaction.
///
/// Recording is idempotent by transaction ID: a transaction the backend delivers again after
/// a crash is counted once. Implementations must be
/// safe to use from several processes at once.
public protocol PurchaseLedger: Sendable {
    /// Records a delivered transaction.
    /// - Returns: `false` when a transaction with this ID was already recorded (nothing changes).
    /// - Throws: `LedgerError` when the record cannot be made durable.
    func record(_ transaction: Transaction) throws(LedgerError) -> Bool

    /// Whether a transaction with this ID is recorded.
    func contains(transactionID: String) throws(LedgerError) -> Bool

    /// The recorded transaction with this ID, if there is one.
    func transaction(withID transactionID: String) throws(LedgerError) -> Transaction?

    /// Replaces a recorded transaction with a newer version of itself (a refund's revocation
    /// date, a changed expiry). Does nothing when the ID is not recorded.
    func update(_ transaction: Transaction) throws(LedgerError)

    /// Every recorded transaction, oldest first.
    func transactions() throws(LedgerError) -> [Transaction]

    /// The transactions entitlements and subscription statuses are computed from: every
    /// non-consumable and non-renewing subscription transaction, oldest first, then the latest
    /// transaction of each subscription group (in `EntitlementCalculator`'s order). What
    /// `EntitlementCalculator` makes of them is what it makes of every transaction; a ledger
    /// that keeps them apart answers without reading the whole history. By default, every
    /// transaction.
    func entitlementTransactions() throws(LedgerError) -> [Transaction]

    /// The transactions subscription statuses are computed from: at least the latest
    /// transaction of each subscription (the account's own in each group, and each family
    /// share), in any order. What `EntitlementCalculator.statuses` makes of them is what it makes
    /// of every transaction. By default, the auto-renewable ones of `entitlementTransactions()`.
    func subscriptionTransactions() throws(LedgerError) -> [Transaction]

    /// What a listing shows of every recorded transaction (`TransactionSummary`), in
    /// `transactions()`' order. By default, made from `transactions()`.
    func transactionSummaries() throws(LedgerError) -> [TransactionSummary]

    /// The digest of every recorded transaction ID (`TransactionDigest`), which
    /// `Store.auditLedger()` compares with the store's before reading either side in full. By
    /// default, made from `transactions()`.
    func transactionDigest() throws(LedgerError) -> TransactionDigest

    /// What the last full audit that found nothing missing saw separating the store's finished
    /// transactions from the ledger's (store digest − ledger digest): while the difference
    /// stays the same, nothing new is missing. By default none is kept (every mismatch is
    /// compared in full).
    func auditBaseline() throws(LedgerError) -> TransactionDigest?

    /// Keeps `baseline` as the one `auditBaseline()` returns.
    func saveAuditBaseline(_ baseline: TransactionDigest) throws(LedgerError)

    /// Units of a consumable bought and not yet consumed.
    func balance(of productID: String) throws(LedgerError) -> Int

    /// Every consumable's balance, by product ID (zero balances omitted).
    func balances() throws(LedgerError) -> [String: Int]

    /// Uses up `quantity` units of a consumable.
    /// - Returns: the balance left.
    /// - Throws: `LedgerError.insufficientBalance` when fewer units are left.
    func consume(productID: String, quantity: Int) throws(LedgerError) -> Int

    /// Forgets a recorded transaction: it no longer counts as delivered (a backend that
    /// delivers it again gets it recorded again), and a consumable's units leave its balance,
    /// which never goes below zero.
    /// - Returns: whether a transaction with this ID was recorded.
    func remove(transactionID: String) throws(LedgerError) -> Bool

    /// Forgets every recorded transaction and every consumable balance (RMStore's
    /// `removeTransactions`); unverified orders stay.
    func removeAll() throws(LedgerError)

    /// Keeps a purchase whose verification could not be completed, with its receipt and the
    /// app's order data, until it is verified (a lost order must never be lost).
    func saveUnverifiedOrder(_ order: UnverifiedOrder) throws(LedgerError)

    /// Forgets an unverified order once it has been verified (or rejected).
    func removeUnverifiedOrder(transactionID: String) throws(LedgerError)

    /// Orders still waiting for verification.
    func unverifiedOrders() throws(LedgerError) -> [UnverifiedOrder]
}

extension PurchaseLedger {
    /// Every transaction (`transactions()`): right for any ledger, and what a ledger without
    /// aggregates has.
    public func entitlementTransactions() throws(LedgerError) -> [Transaction] { try transactions() }

    /// The auto-renewable transactions of `entitlementTransactions()`: right for any ledger.
    public func subscriptionTransactions() throws(LedgerError) -> [Transaction] {
        try entitlementTransactions().filter { $0.productType == .autoRenewable }
    }

    /// The summaries of `transactions()`: right for any ledger.
    public func transactionSummaries() throws(LedgerError) -> [TransactionSummary] {
        try transactions().map(TransactionSummary.init)
    }

    /// The digest of `transactions()`' IDs: right for any ledger, and what one without
    /// aggregates has.
    public func transactionDigest() throws(LedgerError) -> TransactionDigest {
        TransactionDigest(ids: try transactions().map(\.transactionID))
    }

    /// A ledger that keeps no baseline has none.
    public func auditBaseline() throws(LedgerError) -> TransactionDigest? { nil }

    /// A ledger that keeps no baseline forgets it.
    public func saveAuditBaseline(_ baseline: TransactionDigest) throws(LedgerError) {}
}
