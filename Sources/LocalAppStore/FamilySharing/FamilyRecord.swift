import Foundation

/// What Family Sharing adds to the store's journal (kind `family`): the accounts the store
/// knows, the family, each purchaser's choice to share a product, and each purchase shared
/// with a member (its end included). One member is set per record; each is the whole value
/// after a change (the last one wins).
struct FamilyRecord: Codable, Hashable, Sendable {
    /// An account one can sign in to (added with a member; kept after it leaves).
    var account: StoreAccount?
    /// The family after a change.
    var roster: FamilyRoster?
    /// A purchaser's choice to share one product (or not).
    var sharing: SharingChoice?
    /// A purchase shared with one member, or its end.
    var share: FamilyShare?
}

/// Who is in the family: its organizer and up to five members.
struct FamilyRoster: Codable, Hashable, Sendable {
    /// The organizer's account ID.
    var organizerID: String
    /// The other members' account IDs, in the order they joined.
    var memberIDs: [String]

    /// The most members besides the organizer (Apple's family of six).
    static let maximumMembers = 5

    /// Every account of the family, the organizer first.
    var everyone: [String] { [organizerID] + memberIDs }

    /// Whether the account is in the family.
    func contains(_ accountID: String) -> Bool { everyone.contains(accountID) }
}

/// A purchaser's choice to share one of their products with the family (Apple's
/// "Share with Family" switch, on by default for a shareable product).
struct SharingChoice: Codable, Hashable, Sendable {
    var accountID: String
    var productID: String
    var shares: Bool
}

/// A purchase shared with one member: the purchaser's original transaction and the member's
/// (its own, which its shared renewals continue), and when the sharing ended.
struct FamilyShare: Codable, Hashable, Sendable {
    var purchaserID: String
    var purchaserOriginalTransactionID: String
    var memberID: String
    var memberOriginalTransactionID: String
    var productID: String
    /// When sharing ended (the member's transactions were revoked then); nil while shared.
    var revocationDate: Date?

    /// The key the state keeps it under: the purchase and the member.
    var key: String { Self.key(purchaserOriginalTransactionID: purchaserOriginalTransactionID, memberID: memberID) }

    static func key(purchaserOriginalTransactionID: String, memberID: String) -> String {
        purchaserOriginalTransactionID + "\u{1F}" + memberID
    }
}
