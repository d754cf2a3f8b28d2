/// The answer of Get Transaction History v1 and v2 (Apple's `HistoryResponse`).
public struct HistoryResponse: Codable, Hashable, Sendable {
    /// The token for the next page (send it back as `revision`).
    public var revision: String?
    /// Whether more transactions follow.
    public var hasMore: Bool?
    /// The app's bundle ID.
    public var bundleId: String?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// The environment, as stored (`Sandbox`, `Production`…).
    public var environment: String?
    /// Up to 20 signed transactions.
    public var signedTransactions: [String]?
}
