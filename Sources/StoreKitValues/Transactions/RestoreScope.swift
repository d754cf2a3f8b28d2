/// Which of the account's purchases a restore brings back: StoreKit 1's restore and
/// StoreKit 2's sync differ on non-renewing subscriptions. Neither brings back consumables.
public enum RestoreScope: String, Sendable, Hashable, CaseIterable, Codable {
    /// StoreKit 1's `restoreCompletedTransactions()`: non-consumables and auto-renewable
    /// subscriptions. Apple: it "has no effect" on items that are not restorable, "such as a
    /// non-renewing subscription or a consumable product".
    case completedTransactions
    /// StoreKit 2's `AppStore.sync()`: non-renewing subscriptions too, as
    /// `Transaction.currentEntitlements` includes them.
    case sync

    /// Whether a restore of this scope brings back purchases of `type` (no product type this
    /// version does not know).
    /// - Parameter type: a purchase's product type.
    public func includes(_ type: ProductType) -> Bool {
        switch type {
        case .nonConsumable, .autoRenewable: true
        case .nonRenewing: self == .sync
        default: false
        }
    }
}
