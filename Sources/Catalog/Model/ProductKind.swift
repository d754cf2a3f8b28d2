/// The kind of an in-app purchase, stored as Xcode's raw `type` string.
public enum ProductKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Used up once bought (coins, lives); can be bought again. Raw value `Consumable`.
    case consumable = "Consumable"
    /// Bought once, owned forever, restorable. Raw value `NonConsumable`.
    case nonConsumable = "NonConsumable"
    /// An auto-renewable subscription in a subscription group. Raw value `RecurringSubscription`.
    case autoRenewable = "RecurringSubscription"
    /// A subscription for a fixed time that does not renew. Raw value `NonRenewingSubscription`.
    case nonRenewing = "NonRenewingSubscription"

    /// A stable lower-camel-case name for scripts and display (`consumable`, `autoRenewable`, …).
    public var name: String {
        switch self {
        case .consumable: "consumable"
        case .nonConsumable: "nonConsumable"
        case .autoRenewable: "autoRenewable"
        case .nonRenewing: "nonRenewing"
        }
    }
}
