import Foundation
import StoreCore

/// How the local store decides and charges a purchase, as journal records: what a
/// `.purchasing` transaction becomes under the settings (failed, deferred for Ask to Buy,
/// interrupted, or charged), what approving, declining or resolving a deferred one does, and
/// how a charge is made (a non-consumable the account owns is delivered again free; a
/// subscription goes to the `SubscriptionDesk`).
///
/// A value with no side effects: each rule takes the journal's state (read under the write
/// lock) and returns the changed entry and the records to append, so tests run the rules on a
/// `JournalState` without a store, and the store journals what they return.
struct ChargingRules {
    /// Prices products in the current storefront (and names the catalog).
    let localizer: ProductLocalizer
    /// The time of the change: the purchase date of what is charged now.
    let now: Date

    /// The subscription rules under `state`'s settings, at `now`. Purchases and renewals are
    /// priced in the storefront a subscriber subscribed in (none named: the current storefront).
    func subscriptionDesk(for state: JournalState) -> SubscriptionDesk {
        SubscriptionDesk(
            catalog: localizer.catalog, settings: state.settings, now: now, currentStorefront: localizer.storefront)
    }

    // MARK: - Settling a purchase

    /// Decides the `.purchasing` transaction `id` of `accountID` as `state.settings` say, in
    /// this order: failed (`fail-purchases`), deferred waiting for approval (`ask-to-buy`),
    /// deferred as interrupted (`interrupted-purchases`), or charged.
    /// - Returns: the records to journal (none when the transaction is no longer unfinished and
    ///   `.purchasing` in this account: someone settled it first) and whether the account is charged.
    func settle(_ id: String, accountID: String, state: JournalState) -> (records: [JournalRecord], charged: Bool) {
        guard var entry = state.entries[id], entry.accountID == accountID, !entry.finished,
            entry.transaction.state == .purchasing
        else { return ([], false) }
        let settings = state.settings
        var extra: [JournalRecord] = []
        entry.owner = nil
        if let failure = settings.failPurchases {
            entry.transaction.state = .failed
            entry.transaction.error = failure.storeError(productID: entry.transaction.productID)
        } else if settings.askToBuy {
            entry.transaction.state = .deferred
            entry.pending = .askToBuy
        } else if settings.interruptPurchases {
            entry.transaction.state = .deferred
            entry.transaction.error = .interrupted
            entry.pending = .interrupted
        } else {
            extra = charge(&entry, state: state)
        }
        return ([JournalRecord.make(entry)] + extra, entry.charged)
    }

    /// Marks a transaction purchased now and charges the account, unless the account already
    /// has the non-consumable: then it is delivered again without a charge (as the App Store
    /// does), as a new transaction of the first purchase, or of the family member's share of it
    /// (`FAMILY_SHARED`, Docs/decisions/0131-a-member-buying-what-the-family-shares.md).
    /// - Returns: the records to journal besides `entry` (a subscription's lifecycle, the
    ///   transactions an upgrade replaces).
    func charge(_ entry: inout QueueEntry, state: JournalState) -> [JournalRecord] {
        entry.transaction.state = .purchased
        entry.transaction.error = nil
        entry.transaction.purchaseDate = now
        entry.transaction.originalPurchaseDate = now
        let transaction = entry.transaction
        if transaction.productType == .nonConsumable,
            let owned = state.ownedPurchase(accountID: entry.accountID, productID: transaction.productID),
            owned.id != entry.id
        {
            entry.transaction = StoreCore.Transaction(
                transactionID: transaction.transactionID, originalTransactionID: owned.id,
                productID: transaction.productID, productType: transaction.productType, payment: transaction.payment,
                state: .purchased, purchaseDate: now, originalPurchaseDate: owned.transaction.purchaseDate,
                price: transaction.price, currencyCode: transaction.currencyCode, storefront: transaction.storefront)
            entry.charged = false
            return []
        }
        if transaction.productType == .nonConsumable,
            let shared = FamilyRules.sharedNonConsumable(transaction.productID, memberID: entry.accountID, in: state)
        {
            entry.transaction = StoreCore.Transaction(
                transactionID: transaction.transactionID, originalTransactionID: shared.originalTransactionID,
                productID: transaction.productID, productType: transaction.productType, payment: transaction.payment,
                state: .purchased, purchaseDate: now, originalPurchaseDate: shared.originalPurchaseDate, price: 0,
                currencyCode: transaction.currencyCode, storefront: transaction.storefront,
                ownershipType: .familyShared)
            entry.charged = false
            return []
        }
        if transaction.productType == .autoRenewable {
            let (charged, records) = subscriptionDesk(for: state).purchase(&entry, state: state)
            entry.charged = charged && entry.transaction.state == .purchased
            return records
        }
        entry.charged = true
        return []
    }

    // MARK: - Deferred purchases

    /// Completes a deferred purchase waiting for `reason` (an approval, a resolve): it is
    /// charged as `charge` says and its wait and error are cleared.
    /// - Returns: the completed entry and the records to journal (the entry's first).
    /// - Throws: `.unknownTransaction`, or `.notPending` when it does not wait for `reason`.
    func complete(
        _ id: String, accountID: String, waitingFor reason: PendingReason, state: JournalState
    ) throws(LocalAppStoreError) -> (entry: QueueEntry, records: [JournalRecord]) {
        var entry = try Self.waiting(id, accountID: accountID, for: reason, in: state)
        entry.pending = nil
        entry.transaction.error = nil
        let extra = charge(&entry, state: state)
        return (entry, [JournalRecord.make(entry)] + extra)
    }

    /// Declines an Ask to Buy purchase: it fails with `.paymentCancelled`, nothing is charged.
    /// - Returns: the declined entry, to journal.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it does not wait for approval.
    static func decline(
        _ id: String, accountID: String, in state: JournalState
    ) throws(LocalAppStoreError) -> QueueEntry {
        var entry = try waiting(id, accountID: accountID, for: .askToBuy, in: state)
        entry.transaction.state = .failed
        entry.transaction.error = .paymentCancelled
        entry.pending = nil
        return entry
    }

    /// The deferred entry `id` of `accountID` that waits for `reason`.
    /// - Throws: `.unknownTransaction`, or `.notPending` naming what it is instead.
    static func waiting(
        _ id: String, accountID: String, for reason: PendingReason, in state: JournalState
    ) throws(LocalAppStoreError) -> QueueEntry {
        guard let entry = state.entries[id], entry.accountID == accountID else { throw .unknownTransaction(id) }
        guard !entry.finished, entry.transaction.state == .deferred, entry.pending == reason else {
            // Waiting for something else, the message names the command that ends that wait.
            let now =
                entry.finished
                ? "finished"
                : entry.pending.map { other in
                    other.waitingPurchase + (other.commands(transactionID: id).map { " (use \($0))" } ?? "")
                } ?? entry.transaction.state.rawValue
            throw .notPending(transactionID: id, state: now, expected: reason.waitingPurchase)
        }
        return entry
    }
}
