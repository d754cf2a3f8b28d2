import Foundation
import StoreKitValues

/// What the account owns and what waits, as the engine knows it now.
public struct PurchasesSnapshot: Hashable, Sendable {
    /// Every transaction, newest first.
    public var transactions: [Transaction]
    /// Consumable balances by product ID.
    public var balances: [String: Int]
    /// Non-consumables owned.
    public var owned: Set<String>
    /// Subscriptions (auto-renewable and non-renewing) by product ID → end of the current period.
    public var activeUntil: [String: Date]
    /// Transactions that wait for a decision: deferred (Ask to Buy), interrupted, unfinished.
    public var pending: [Transaction]
    /// The auto-renewable subscriptions as the store runs them, for the Transaction Manager.
    public var subscriptions: [ManagedSubscription]
    /// Apple-style order IDs (as on the customer's invoice), by transaction ID: purchases and
    /// renewals have one, restored copies none.
    public var orderIDs: [String: String]
    /// The name of the family member who shares each `FAMILY_SHARED` transaction, by transaction ID.
    public var sharedBy: [String: String]

    /// Creates a snapshot.
    public init(
        transactions: [Transaction] = [], balances: [String: Int] = [:], owned: Set<String> = [],
        activeUntil: [String: Date] = [:], pending: [Transaction] = [], subscriptions: [ManagedSubscription] = [],
        orderIDs: [String: String] = [:], sharedBy: [String: String] = [:]
    ) {
        self.sharedBy = sharedBy
        self.transactions = transactions
        self.balances = balances
        self.owned = owned
        self.activeUntil = activeUntil
        self.pending = pending
        self.subscriptions = subscriptions
        self.orderIDs = orderIDs
    }

    /// Whether the account may still take `product`'s introductory offer: it has one and the
    /// account never subscribed in its group (as the store decides at purchase).
    func isEligibleForIntroOffer(_ product: Product) -> Bool {
        guard let subscription = product.subscription, subscription.introductoryOffer != nil else { return false }
        return isEligibleForIntroOffer(inGroup: subscription.groupID)
    }

    /// Whether the account never subscribed in the group `groupID` (an introductory offer of
    /// any of its plans is then the account's to take).
    func isEligibleForIntroOffer(inGroup groupID: String) -> Bool {
        PurchaseQueries.isEligibleForIntroOffer(groupID: groupID, in: transactions.map(PurchaseRecord.init))
    }

    /// Whether the account chose a 12-month commitment before (a monthly payment is in its
    /// history): the App Store shows its disclosure of the commitment only before the first.
    var hasChosenACommitment: Bool {
        transactions.contains { $0.billingPlanType?.hasCommitment == true }
    }
}
