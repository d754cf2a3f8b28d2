import StoreKitValues

/// The type of an in-app purchase in a signed transaction (Apple's `type`).
public enum AppStoreProductType: String, Codable, Hashable, Sendable, CaseIterable {
    /// An auto-renewable subscription.
    case autoRenewableSubscription = "Auto-Renewable Subscription"
    /// A non-consumable product.
    case nonConsumable = "Non-Consumable"
    /// A consumable product.
    case consumable = "Consumable"
    /// A non-renewing subscription.
    case nonRenewingSubscription = "Non-Renewing Subscription"
}

extension AppStoreProductType: AppleProductType {}
