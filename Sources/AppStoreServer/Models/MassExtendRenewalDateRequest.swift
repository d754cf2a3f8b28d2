/// The body of Extend Subscription Renewal Dates for All Active Subscribers (Apple's `MassExtendRenewalDateRequest`).
public struct MassExtendRenewalDateRequest: Codable, Hashable, Sendable {
    /// Days to extend by, 1…90.
    public var extendByDays: Int32?
    /// Why, as stored (see `ExtendRenewalDateRequest`).
    public var extendReasonCode: Int32?
    /// The caller's identifier for the request (at most 128 characters).
    public var requestIdentifier: String?
    /// Limit to these storefronts (ISO 3166-1 alpha-3); all when absent.
    public var storefrontCountryCodes: [String]?
    /// The subscription product to extend.
    public var productId: String?

}
