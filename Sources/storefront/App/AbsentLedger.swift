import StoreCore

/// The ledger of a read-only data directory that has no vault yet: nothing was ever recorded
/// there, so every read is empty, and every write fails naming the vault that cannot be made.
struct AbsentLedger: PurchaseLedger {
    /// The vault file that does not exist.
    let path: String

    private var refusal: LedgerError {
        .io(path: path, reason: "there is no purchase vault and the data directory is read-only, so none can be made")
    }

    func record(_ transaction: Transaction) throws(LedgerError) -> Bool { throw refusal }
    func contains(transactionID: String) throws(LedgerError) -> Bool { false }
    func transaction(withID transactionID: String) throws(LedgerError) -> Transaction? { nil }
    func update(_ transaction: Transaction) throws(LedgerError) { throw refusal }
    func transactions() throws(LedgerError) -> [Transaction] { [] }
    func balance(of productID: String) throws(LedgerError) -> Int { 0 }
    func balances() throws(LedgerError) -> [String: Int] { [:] }
    func consume(productID: String, quantity: Int) throws(LedgerError) -> Int { throw refusal }
    func remove(transactionID: String) throws(LedgerError) -> Bool { throw refusal }
    func removeAll() throws(LedgerError) { throw refusal }
    func saveUnverifiedOrder(_ order: UnverifiedOrder) throws(LedgerError) { throw refusal }
    func removeUnverifiedOrder(transactionID: String) throws(LedgerError) { throw refusal }
    func unverifiedOrders() throws(LedgerError) -> [UnverifiedOrder] { [] }
}
