/// The kind of an in-app product, stored raw so unknown future kinds survive a round trip.
public struct ProductType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Used once and gone: coins, gems, hints.
    public static let consumable = ProductType(rawValue: "consumable")
    /// Bought once, owned forever: a level pack, a pro unlock.
    public static let nonConsumable = ProductType(rawValue: "nonConsumable")
    /// Renews until cancelled, within a subscription group.
    public static let autoRenewable = ProductType(rawValue: "autoRenewable")
    /// Runs for a duration the app defines, then stops.
    public static let nonRenewing = ProductType(rawValue: "nonRenewing")

    public var description: String { rawValue }

    /// Whether StoreKit 1's restore brings it back: non-consumables and auto-renewable
    /// subscriptions, never consumables or non-renewing subscriptions
    /// (`RestoreScope.completedTransactions`; StoreKit 2's sync brings back more, `RestoreScope.sync`).
    @available(
        *, deprecated,
        message:
            "StoreKit 1's restore and StoreKit 2's sync differ on non-renewing subscriptions: ask RestoreScope.includes(_:)"
    )
    public var isRestorable: Bool { RestoreScope.completedTransactions.includes(self) }
}
