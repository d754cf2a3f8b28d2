/// The answer of Get Refund History (Apple's `RefundHistoryResponse`).
public struct RefundHistoryResponse: Codable, Hashable, Sendable {
    /// Up to 20 refunded transactions, signed.
    public var signedTransactions: [String]?
    /// The token for the next page.
    public var revision: String?
    /// Whether more refunded transactions follow.
    public var hasMore: Bool?

    /// Creates a response.
    public init(signedTransactions: [String]? = nil, revision: String? = nil, hasMore: Bool? = nil) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
    }
}
