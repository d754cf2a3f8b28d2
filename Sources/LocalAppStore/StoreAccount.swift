/// The account signed in to the local App Store: whose purchases, charges and history.
public struct StoreAccount: Codable, Hashable, Sendable {
    /// A stable identifier, kept with every transaction of the account.
    public let id: String
    /// The name shown to people, e.g. in the storefront's header.
    public let displayName: String

    /// The account signed in by default.
    public static let localTester = StoreAccount(id: "local-tester", displayName: "Local Tester")
}
