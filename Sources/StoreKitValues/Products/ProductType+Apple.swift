/// The one mapping between the engine's product kinds and Apple's two enums of them (a
/// receipt's `InAppProductType`, a signed transaction's `AppStoreProductType`), read both ways.
extension ProductType {
    /// The kinds Apple names, in Apple's order.
    public static let appleNamed: [ProductType] = [.consumable, .nonConsumable, .autoRenewable, .nonRenewing]

    /// Apple's name for this kind in `Apple`'s enum; nil for a kind Apple does not name.
    public func apple<Apple: AppleProductType>(_ type: Apple.Type = Apple.self) -> Apple? {
        switch self {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewable: .autoRenewableSubscription
        case .nonRenewing: .nonRenewingSubscription
        default: nil
        }
    }

    /// The engine's kind for Apple's `apple`; nil for a value outside Apple's four.
    public init?<Apple: AppleProductType>(_ apple: Apple) {
        guard let kind = Self.appleNamed.first(where: { $0.apple(Apple.self) == apple }) else { return nil }
        self = kind
    }
}
