/// The account signed in to the local App Store: whose purchases, charges and history.
public struct StoreAccount: Codable, Hashable, Sendable {
    /// A stable identifier, kept with every transaction of the account.
    public let id: String
    /// The name shown to people, e.g. in the storefront's header.
    public let displayName: String
    /// The account's storefront (ISO 3166 alpha-3), when it has its own; nil: the catalog's.
    public let storefront: String?

    /// The account signed in by default.
    public static let localTester = StoreAccount(id: "local-tester", displayName: "Local Tester")

    /// Creates an account, such as a second tester on the same store state
    /// (`LocalAppStoreConfiguration(account:)`): its purchases, charges and history are its own.
    /// - Parameters:
    ///   - id: a stable identifier, kept with every transaction of the account; the same ID
    ///     is the same account in every process.
    ///   - displayName: the name shown to people.
    ///   - storefront: the account's storefront (ISO 3166 alpha-3); nil for the catalog's.
    public init(id: String, displayName: String, storefront: String? = nil) {
        self.id = id
        self.displayName = displayName
        self.storefront = storefront
    }
}
