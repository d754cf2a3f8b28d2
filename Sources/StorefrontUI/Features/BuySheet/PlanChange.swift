import StoreKitValues

/// Buying a subscription while subscribed to another of its group: a change of plan, as the
/// App Store makes it. A higher level (a smaller number) is an upgrade and starts at once;
/// a lower one is a downgrade and starts at the next renewal; the same level is a crossgrade,
/// at once when the periods match, else at the next renewal.
public struct PlanChange: Hashable, Sendable {
    /// Which way the plan changes.
    public enum Kind: Hashable, Sendable { case upgrade, downgrade, crossgrade }

    /// The product subscribed to now.
    public let fromProductID: String
    /// Its name.
    public let fromName: String
    /// Which way.
    public let kind: Kind
    /// Whether the new plan starts at once (else at the next renewal).
    public let startsNow: Bool

    /// The change buying `product` makes, or nil when the account has no other active
    /// subscription in its group (or already has this one).
    public static func of(_ product: Product, in state: State) -> PlanChange? {
        guard let info = product.subscription else { return nil }
        let current = state.purchases.subscriptions.first { subscription in
            guard !subscription.hasEnded, subscription.productID != product.id,
                let other = state.product(subscription.productID)?.subscription
            else { return false }
            return other.groupID == info.groupID
        }
        guard let current, let other = state.product(current.productID)?.subscription else { return nil }
        let kind: Kind =
            info.groupLevel < other.groupLevel
            ? .upgrade : (info.groupLevel > other.groupLevel ? .downgrade : .crossgrade)
        let startsNow = kind == .upgrade || (kind == .crossgrade && info.period == other.period)
        return PlanChange(
            fromProductID: current.productID, fromName: state.name(of: current.productID), kind: kind,
            startsNow: startsNow)
    }

    /// The change in words: `Upgrade from Plus (Monthly): starts now, …`.
    func text(_ s: Strings) -> String {
        let what =
            switch kind {
            case .upgrade: s("Upgrade from {}", fromName)
            case .downgrade: s("Downgrade from {}", fromName)
            case .crossgrade: s("Crossgrade from {}", fromName)
            }
        return what + ": "
            + (startsNow
                ? s("starts now; the rest of the current period is refunded")
                : s("starts at the next renewal"))
    }
}
