import Foundation

/// Consumption information an app's server sent for a transaction (Send Consumption
/// Information), as received: `store consumption` shows it.
package struct ConsumptionRecord: Codable, Hashable, Sendable {
    /// The transaction it is about.
    package var transactionID: String
    /// When the store received it (store clock).
    package var receivedDate: Date
    /// The endpoint's version: 1 (`ConsumptionRequestV1`) or 2 (`ConsumptionRequest`).
    package var version: Int
    /// The request body's members, as sent (JSON text of each value).
    package var fields: [String: String]

    /// Creates a record.
    package init(transactionID: String, receivedDate: Date, version: Int, fields: [String: String]) {
        self.transactionID = transactionID
        self.receivedDate = receivedDate
        self.version = version
        self.fields = fields
    }

    /// The records that keep this information: nil when `accountID` has no purchased or
    /// restored transaction with its ID (then nothing is written).
    func records(accountID account: String, in state: JournalState) -> [JournalRecord]? {
        guard let entry = state.entries[transactionID], entry.accountID == account,
            entry.transaction.state == .purchased || entry.transaction.state == .restored
        else { return nil }
        return [JournalRecord.make(ServerRecord(consumption: self))]
    }
}
