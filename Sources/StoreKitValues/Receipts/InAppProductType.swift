/// The product type of an in-app purchase receipt (attribute 1707; undocumented by Apple,
/// values as seen in real receipts and read by RevenueCat).
public enum InAppProductType: Int, Codable, Hashable, Sendable, CaseIterable {
    /// A non-consumable product.
    case nonConsumable = 0
    /// A consumable product.
    case consumable = 1
    /// A non-renewing subscription.
    case nonRenewingSubscription = 2
    /// An auto-renewable subscription.
    case autoRenewableSubscription = 3
}
