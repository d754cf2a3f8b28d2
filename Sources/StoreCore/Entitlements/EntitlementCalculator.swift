import Foundation

/// Answers "what does this account have right now" from its purchase records, with StoreKit 2's
/// rules: non-consumables, active or in-grace subscriptions and the latest transaction of each
/// non-renewing subscription (until the app's duration for it ends, when it sets one) count;
/// consumables, refunded and revoked items never do. One pass over the records: the cost grows
/// linearly with the history.
public struct EntitlementCalculator: Sendable {
    /// How long a non-renewing subscription lasts, by product ID: the app decides.
    public var nonRenewingDuration: @Sendable (String) -> SubscriptionPeriod?

    /// Creates a calculator; a non-renewing subscription lasts `nonRenewingDuration(productID)`
    /// from its purchase. Nil (the default) sets no end: its latest transaction is an
    /// entitlement, as StoreKit 2's `Transaction.currentEntitlements` has it, until a store's
    /// expiry date, if the store sets one.
    public init(nonRenewingDuration: @escaping @Sendable (String) -> SubscriptionPeriod? = { _ in nil }) {
        self.nonRenewingDuration = nonRenewingDuration
    }

    /// The status of every subscription that has at least one record, by group ID order: one per
    /// group, and one more for each subscription of the group a family member shares with the
    /// account (StoreKit 2's array "can have more than one subscription status if your
    /// subscription supports Family Sharing"), the account's own first.
    public func statuses(
        records: [PurchaseRecord], renewalInfo: [RenewalInfo], at now: Date
    ) -> [SubscriptionStatus] {
        var latestBySubscription: [String: PurchaseRecord] = [:]
        for record in records where record.productType == .autoRenewable {
            guard let key = Self.subscriptionKey(of: record) else { continue }
            if let current = latestBySubscription[key], !Self.isLater(record, than: current) { continue }
            latestBySubscription[key] = record
        }
        let renewals = Dictionary(renewalInfo.map { ($0.originalTransactionID, $0) }, uniquingKeysWith: { $1 })
        return latestBySubscription.keys.sorted().compactMap { key in
            guard let latest = latestBySubscription[key], let group = latest.subscriptionGroupID else { return nil }
            let renewal = renewals[latest.originalTransactionID]
            return SubscriptionStatus(
                groupID: group, state: Self.state(of: latest, renewal: renewal, at: now),
                transaction: latest, renewalInfo: renewal)
        }
    }

    /// Which subscription a record belongs to, for its status: the account's own of its group
    /// (the group's ID), or a family member's share (the group's ID, U+001F and the account's
    /// original transaction ID of the share); nil outside a group.
    static func subscriptionKey(of record: PurchaseRecord) -> String? {
        subscriptionKey(
            groupID: record.subscriptionGroupID, ownershipType: record.ownershipType,
            originalTransactionID: record.originalTransactionID)
    }

    /// `subscriptionKey(of:)` of a transaction (the ledger's aggregates keep each subscription's
    /// latest by it).
    static func subscriptionKey(of transaction: Transaction) -> String? {
        subscriptionKey(
            groupID: transaction.subscriptionGroupID, ownershipType: transaction.ownershipType,
            originalTransactionID: transaction.originalTransactionID)
    }

    private static func subscriptionKey(
        groupID: String?, ownershipType: Transaction.OwnershipType, originalTransactionID: String
    ) -> String? {
        guard let groupID else { return nil }
        guard ownershipType == .familyShared else { return groupID }
        return groupID + "\u{1F}" + originalTransactionID
    }

    /// Everything the account is entitled to at `now`, ordered by product ID.
    public func currentEntitlements(
        records: [PurchaseRecord], renewalInfo: [RenewalInfo], at now: Date
    ) -> [Entitlement] {
        var byProduct: [String: Entitlement] = [:]
        for record in records where record.cancellationDate == nil {
            switch record.productType {
            case .nonConsumable?:
                if let have = byProduct[record.productID], have.purchaseDate >= record.purchaseDate { continue }
                byProduct[record.productID] = Entitlement(record, type: .nonConsumable, expires: nil, state: nil)
            case .nonRenewing?:
                let expires =
                    record.expiresDate
                    ?? nonRenewingDuration(record.productID).map { $0.advance(record.purchaseDate) }
                if let expires, expires <= now { continue }
                // The one that ends last; without ends, the latest purchase.
                if let have = byProduct[record.productID] {
                    let isLater =
                        if let expires, let end = have.expiresDate { expires > end } else {
                            record.purchaseDate > have.purchaseDate
                        }
                    guard isLater else { continue }
                }
                byProduct[record.productID] = Entitlement(
                    record, type: .nonRenewing, expires: expires, state: .subscribed)
            default:
                continue
            }
        }
        for status in statuses(records: records, renewalInfo: renewalInfo, at: now)
        where status.state == .subscribed || status.state == .inGracePeriod {
            let record = status.transaction
            byProduct[record.productID] = Entitlement(
                record, type: .autoRenewable, expires: record.expiresDate, state: status.state)
        }
        return byProduct.keys.sorted().compactMap { byProduct[$0] }
    }

    static func state(of latest: PurchaseRecord, renewal: RenewalInfo?, at now: Date) -> SubscriptionStatus.State {
        if latest.cancellationDate != nil { return .revoked }
        if let expires = latest.expiresDate, expires > now { return .subscribed }
        if let grace = renewal?.gracePeriodExpiresDate, grace > now { return .inGracePeriod }
        if renewal?.isInBillingRetry == true { return .inBillingRetryPeriod }
        return .expired
    }

    /// Orders records of one group: an upgraded record yields to the one that replaced it,
    /// then the later period (by expiry: a restored copy is dated at the restore, not at its
    /// period), then the later purchase, then the higher transaction ID wins.
    static func isLater(_ a: PurchaseRecord, than b: PurchaseRecord) -> Bool {
        if a.isUpgraded != b.isUpgraded { return !a.isUpgraded }
        let (aEnd, bEnd) = (a.expiresDate ?? .distantPast, b.expiresDate ?? .distantPast)
        if aEnd != bEnd { return aEnd > bEnd }
        if a.purchaseDate != b.purchaseDate { return a.purchaseDate > b.purchaseDate }
        return a.transactionID.count != b.transactionID.count
            ? a.transactionID.count > b.transactionID.count : a.transactionID > b.transactionID
    }
}

extension Entitlement {
    init(_ record: PurchaseRecord, type: ProductType, expires: Date?, state: SubscriptionStatus.State?) {
        self.init(
            productID: record.productID, productType: type, transactionID: record.transactionID,
            originalTransactionID: record.originalTransactionID, purchaseDate: record.purchaseDate,
            expiresDate: expires, state: state, subscriptionGroupID: record.subscriptionGroupID)
    }
}
