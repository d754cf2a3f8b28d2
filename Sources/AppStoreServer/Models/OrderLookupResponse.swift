/// The answer of Look Up Order ID (Apple's `OrderLookupResponse`).
public struct OrderLookupResponse: Codable, Hashable, Sendable {
    /// 0 when the order ID is valid, 1 when it is not (Apple's `OrderLookupStatus`), as stored.
    public var rawStatus: Int32?
    /// The order's transactions, signed.
    public var signedTransactions: [String]?

    enum CodingKeys: String, CodingKey {
        case rawStatus = "status"
        case signedTransactions
    }
}
