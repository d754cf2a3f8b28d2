/// One subscription group's subscriptions in a `StatusResponse` (Apple's `SubscriptionGroupIdentifierItem`).
public struct SubscriptionGroupIdentifierItem: Codable, Hashable, Sendable {
    /// The group's identifier.
    public var subscriptionGroupIdentifier: String?
    /// The latest transaction of each subscription in the group.
    public var lastTransactions: [LastTransactionsItem]?
}
