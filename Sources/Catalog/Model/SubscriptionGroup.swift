/// A subscription group: auto-renewable subscriptions of which a customer holds at most one.
public struct SubscriptionGroup: Sendable, Hashable, Identifiable {
    /// The group's name and, optionally, the app name shown with it, in one locale.
    public struct Localization: Sendable, Hashable {
        /// The locale identifier, e.g. `en_US`.
        public var locale: String
        /// The group's display name.
        public var displayName: String
        /// The app name to show with the group (`customAppName`), when set.
        public var customAppName: String?
        /// The group's description (`description`, format 6), when set.
        public var description: String?
    }

    /// The group identifier (`id`).
    public var id: String
    /// The reference name (`name`).
    public var name: String
    /// The group's localizations, in file order.
    public var localizations: [Localization] = []
    /// The product identifiers of its subscriptions, in file order.
    public var productIDs: [String] = []
    /// Members the catalog does not model, kept as read.
    public var extra: [String: JSONValue] = [:]
}
