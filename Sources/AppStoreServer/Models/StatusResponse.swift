/// The answer of Get All Subscription Statuses (Apple's `StatusResponse`).
public struct StatusResponse: Codable, Hashable, Sendable {
    /// The environment, as stored.
    public var environment: String?
    /// The app's bundle ID.
    public var bundleId: String?
    /// The app's Apple ID.
    public var appAppleId: Int64?
    /// One item per subscription group.
    public var data: [SubscriptionGroupIdentifierItem]?
}
