import LocalAppStore
import StoreCore

/// Transactions as `store pending` and `store charges` print them: a table with a state
/// column, or a JSON array.
struct TransactionList: VerbOutput {
    /// Each transaction with the state its row shows and the state its JSON names (`nil`: its own).
    let rows: [(transaction: Transaction, state: String, jsonState: String?)]
    /// The line for no transactions.
    let empty: String

    /// Purchases that wait: the row shows why, the JSON's state is `pending-` and why.
    init(pending: [PendingTransaction]) {
        rows = pending.map { ($0.transaction, $0.reason.rawValue, "pending-\($0.reason.rawValue)") }
        empty = "Nothing is pending."
    }

    /// Charges, each in its own state.
    init(charges: [Transaction]) {
        rows = charges.map { ($0, TransactionOutput.state(of: $0), nil) }
        empty = "No charges."
    }

    var json: JSONText { .array(rows.map { TransactionOutput.json($0.transaction, state: $0.jsonState) }) }
    var lines: [String] { rows.isEmpty ? [empty] : TransactionOutput.table(rows.map { ($0.transaction, $0.state) }) }
}
