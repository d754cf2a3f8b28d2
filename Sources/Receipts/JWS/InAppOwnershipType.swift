/// Whether the customer bought the item or has it through Family Sharing (Apple's `inAppOwnershipType`).
public enum InAppOwnershipType: String, Codable, Hashable, Sendable, CaseIterable {
    /// Shared through Family Sharing.
    case familyShared = "FAMILY_SHARED"
    /// Bought by the customer.
    case purchased = "PURCHASED"
}
