import Foundation

/// Why Family Sharing refused a change, with what to do about it.
public enum FamilyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No account has this ID.
    case unknownAccount(String, known: [String])
    /// The ID cannot name an account.
    case invalidAccountID(String)
    /// The account is in the family already.
    case alreadyInFamily(String)
    /// The family has its organizer and five members already.
    case familyFull(members: Int)
    /// The account is not in the family.
    case notInFamily(String)
    /// The catalog's product cannot be shared (not `familyShareable`, or a consumable or a
    /// non-renewing subscription).
    case notShareable(String)

    public var description: String {
        switch self {
        case .unknownAccount(let id, let known):
            "No account \"\(id)\". Accounts: \(known.joined(separator: ", ")); `storefront store family add ID --name NAME` adds one."
        case .invalidAccountID(let id):
            "Invalid account ID \"\(id)\": use 1 to 64 letters, digits, '.', '_' or '-'."
        case .alreadyInFamily(let id):
            "\(id) is in the family already. `storefront store family` lists it."
        case .familyFull(let members):
            "The family is full: an organizer and \(members) members, as Apple allows. Remove one first."
        case .notInFamily(let id):
            "\(id) is not in the family. `storefront store family` lists it."
        case .notShareable(let id):
            "\(id) cannot be shared: only familyShareable non-consumables and auto-renewable subscriptions are."
        }
    }
}

extension FamilyError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
