/// The body of Extend a Subscription Renewal Date (Apple's `ExtendRenewalDateRequest`).
public struct ExtendRenewalDateRequest: Codable, Hashable, Sendable {
    /// Days to extend by, 1…90.
    public var extendByDays: Int32?
    /// Why (0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage), as stored.
    public var extendReasonCode: Int32?
    /// The caller's identifier for the request (at most 128 characters).
    public var requestIdentifier: String?
}
