import Foundation

/// Consumption information an app's server sent for a transaction (Send Consumption
/// Information), as received: `store consumption` shows it.
public struct ConsumptionRecord: Codable, Hashable, Sendable {
    /// The transaction it is about.
    public var transactionID: String
    /// When the store received it (store clock).
    public var receivedDate: Date
    /// The endpoint's version: 1 (`ConsumptionRequestV1`) or 2 (`ConsumptionRequest`).
    public var version: Int
    /// The request body's members, as sent (JSON text of each value).
    public var fields: [String: String]

    /// Creates a record.
    public init(transactionID: String, receivedDate: Date, version: Int, fields: [String: String]) {
        self.transactionID = transactionID
        self.receivedDate = receivedDate
        self.version = version
        self.fields = fields
    }
}
