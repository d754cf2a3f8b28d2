/// What a mass renewal-date extension did, as Apple's `summary` (`RENEWAL_EXTENSION`, `SUMMARY`).
public struct Summary: Codable, Hashable, Sendable {
    /// The environment, as stored.
    public var rawEnvironment: String?
    /// The app's Apple ID (Production only).
    public var appAppleId: Int64?
    /// The app's bundle ID.
    public var bundleId: String?
    /// The product whose subscribers were extended.
    public var productId: String?
    /// The request's identifier.
    public var requestIdentifier: String?
    /// The storefronts (alpha-3) it was limited to.
    public var storefrontCountryCodes: [String]?
    /// Subscriptions extended.
    public var succeededCount: Int64?
    /// Subscriptions that could not be extended.
    public var failedCount: Int64?

    enum CodingKeys: String, CodingKey {
        case rawEnvironment = "environment"
        case appAppleId, bundleId, productId, requestIdentifier, storefrontCountryCodes, succeededCount, failedCount
    }

    /// Creates an empty summary; set what applies.
    public init() {}
}
