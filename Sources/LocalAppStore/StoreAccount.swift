/// The account signed in to the local App Store: whose purchases, charges and history.
public struct StoreAccount: Codable, Hashable, Sendable {
    /// A stable identifier, kept with every transaction of the account.
    public let id: String
    /// The name shown to people, e.g. in the storefront's header.
    public let displayName: String

    /// The account signed in by default.
    public static let localTester = StoreAccount(id: "local-tester", displayName: "Local Tester")

    /// Creates an account, such as a second tester on the same store state
    /// (`LocalAppStoreConfiguration(account:)`): its purchases, charges and history are its own.
    /// - Parameters:
    ///   - id: a stable identifier, kept with every transaction of the account; the same ID
    ///     is the same account in every process.
    ///   - displayName: the name shown to people.
    public init(id: String, displayName: String) {
        self.id = id
        self.displayName = displayName
    }
}
