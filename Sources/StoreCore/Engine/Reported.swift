/// A transaction in a state the engine told the app of (`Store.reported`): what makes each
/// state news once a process.
struct Reported: Hashable {
    let transactionID: String
    let state: TransactionState

    init(_ transactionID: String, _ state: TransactionState) {
        self.transactionID = transactionID
        self.state = state
    }
}
