import Foundation

/// SwiftyStoreKit's questions about a verified receipt or the delivered transactions: was a
/// product purchased, and is a subscription purchased until a date, expired since a date, or
/// never purchased. Refunded items (with a cancellation date) never count.
public enum PurchaseQueries {
    /// The answer for a product bought once.
    public enum PurchaseResult: Hashable, Sendable {
        /// Purchased and not refunded: the earliest such purchase.
        case purchased(PurchaseRecord)
        /// Never purchased, or every purchase was refunded.
        case notPurchased
    }

    /// The answer for a subscription, or for any of a set of subscriptions (a group).
    public enum SubscriptionResult: Hashable, Sendable {
        /// Active until `expiresDate`; `items` are the matching records, latest expiry first.
        case purchased(expiresDate: Date, items: [PurchaseRecord])
        /// Lapsed since `expiresDate`.
        case expired(expiresDate: Date, items: [PurchaseRecord])
        /// Never subscribed (or every period was refunded).
        case notPurchased
    }

    /// How a subscription's end is found.
    public enum SubscriptionKind: Hashable, Sendable {
        /// From each record's expiry date.
        case autoRenewable
        /// From each record's purchase date plus a duration the app defines.
        case nonRenewing(validDuration: TimeInterval)
    }

    /// Whether `productID` was purchased and not refunded; the earliest such purchase.
    public static func verifyPurchase(productID: String, in records: [PurchaseRecord]) -> PurchaseResult {
        let matching = records.filter { $0.productID == productID && $0.cancellationDate == nil }
        guard let first = matching.min(by: { $0.purchaseDate < $1.purchaseDate }) else { return .notPurchased }
        return .purchased(first)
    }

    /// StoreKit 2's `isEligibleForIntroOffer`: an account may take a subscription group's
    /// introductory offer only while it has never subscribed in that group (a refunded or
    /// lapsed subscription still counts, as it does for the App Store).
    public static func isEligibleForIntroOffer(groupID: String, in records: [PurchaseRecord]) -> Bool {
        !records.contains { $0.subscriptionGroupID == groupID }
    }

    /// Whether any of `productIDs` is subscribed at `now`.
    public static func verifySubscriptions(
        _ kind: SubscriptionKind, productIDs: Set<String>, in records: [PurchaseRecord], at now: Date
    ) -> SubscriptionResult {
        let dated: [(Date, PurchaseRecord)] = records.compactMap { record in
            // An upgraded period was replaced (a receipt gives it a cancellation date instead).
            guard productIDs.contains(record.productID), record.cancellationDate == nil, !record.isUpgraded else {
                return nil
            }
            switch kind {
            case .autoRenewable:
                return record.expiresDate.map { ($0, record) }
            case .nonRenewing(let duration):
                return (record.purchaseDate.addingTimeInterval(duration), record)
            }
        }
        let sorted = dated.sorted { $0.0 > $1.0 }
        guard let latest = sorted.first?.0 else { return .notPurchased }
        let items = sorted.map(\.1)
        return latest > now
            ? .purchased(expiresDate: latest, items: items) : .expired(expiresDate: latest, items: items)
    }
}
