/// The four kinds of in-app product as Apple names them in both of its enums of product types
/// (a receipt's `InAppProductType`, a signed transaction's `AppStoreProductType`), so one
/// mapping from the engine's `ProductType` serves both.
public protocol AppleProductType: Hashable, Sendable {
    /// A consumable product.
    static var consumable: Self { get }
    /// A non-consumable product.
    static var nonConsumable: Self { get }
    /// An auto-renewable subscription.
    static var autoRenewableSubscription: Self { get }
    /// A non-renewing subscription.
    static var nonRenewingSubscription: Self { get }
}

extension InAppProductType: AppleProductType {}
