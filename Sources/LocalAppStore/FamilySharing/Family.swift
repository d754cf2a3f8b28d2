/// A family as Family Sharing shows it: its organizer and up to five members.
public struct Family: Hashable, Sendable {
    /// The organizer, who made the family.
    public let organizer: StoreAccount
    /// The other members, in the order they joined.
    public let members: [StoreAccount]

    /// Everyone in the family, the organizer first.
    public var everyone: [StoreAccount] { [organizer] + members }
}
