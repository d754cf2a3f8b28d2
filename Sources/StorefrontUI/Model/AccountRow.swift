/// One account the data directory's app can sign in to, as the Accounts window lists it.
public struct AccountRow: Hashable, Sendable {
    /// Its ID.
    public var id: String
    /// Its name.
    public var name: String
    /// Its place in the family: `organizer`, `member`, or nil outside it.
    public var role: Role?
    /// Whether the app is signed in to it now.
    public var isSignedIn: Bool

    /// An account's place in the family.
    public enum Role: String, Hashable, Sendable {
        /// It made the family.
        case organizer
        /// It joined the family.
        case member
    }

    /// Creates a row.
    public init(id: String, name: String, role: Role?, isSignedIn: Bool) {
        self.id = id
        self.name = name
        self.role = role
        self.isSignedIn = isSignedIn
    }
}
