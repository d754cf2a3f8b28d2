/// The answer of Get Refund History (Apple's `RefundHistoryResponse`).
public struct RefundHistoryResponse: Codable, Hashable, Sendable {
    /// Up to 20 refunded transactions, signed.
    public var signedTransactions: [String]?
    /// The token for the next page.
    public var revision: String?
    /// Whether more refunded transactions follow.
    public var hasMore: Bool?
}
