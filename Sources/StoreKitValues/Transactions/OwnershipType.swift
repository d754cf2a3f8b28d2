extension Transaction {
    /// Whether the account bought the product or has it through Family Sharing (StoreKit's
    /// `Transaction.OwnershipType`, Apple's `inAppOwnershipType`), stored raw so a value a
    /// newer version adds survives.
    public struct OwnershipType: RawRepresentable, Codable, Hashable, Sendable {
        /// Apple's string: `PURCHASED` or `FAMILY_SHARED`.
        public let rawValue: String

        /// Makes a value from Apple's string.
        /// - Parameter rawValue: `PURCHASED`, `FAMILY_SHARED` or a value a newer version knows.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The transaction belongs to the purchaser.
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        /// The transaction belongs to a family member who benefits from the purchase.
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    }
}
