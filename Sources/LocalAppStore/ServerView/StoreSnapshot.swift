import Foundation
import StoreCore

/// The local store's state at one moment, as the App Store Server answers from it: taken in
/// O(1) (the journal state's collections are copy-on-write) and read off the store's actor,
/// so requests run in parallel and a page of history, statuses or notifications costs the
/// same whatever the history's length. Refund history is the exception: refunds have no index,
/// so its pages read every transaction (once per store state: `AnswerCache` keeps the answer).
///
/// Only the account's charged-for transactions count as the server's (purchases, renewals,
/// refunded and upgraded ones); restored copies are found by ID but not listed, and failed,
/// deferred and purchasing transactions do not exist for the server, as on Apple's.
package struct StoreSnapshot: Sendable {
    let state: JournalState
    /// The signed-in account.
    package let accountID: String
    /// The store clock's now when the snapshot was taken.
    package let now: Date
    /// The number of the state's publication (`currentSnapshot()`): two snapshots with the same
    /// number have the same state (their `now` may differ), so what is computed from one's
    /// state alone holds for the other.
    package let publication: UInt64

    /// The store's settings.
    package var settings: LocalStoreSettings { state.settings }

    /// The same moment seen as the customer whose transaction `id` is sees it (a family
    /// member's, for its `FAMILY_SHARED` transactions), as Apple's server answers for every
    /// customer; unchanged when no transaction has this ID.
    /// - Parameter id: a transaction ID from a request's path.
    /// - Returns: the snapshot of that transaction's account.
    package func viewing(accountOf id: String) -> StoreSnapshot {
        guard let account = state.entries[id]?.accountID, account != accountID else { return self }
        return StoreSnapshot(state: state, accountID: account, now: now, publication: publication)
    }

    /// The account's transaction with this ID (purchased, renewed or restored), if any.
    package func transaction(_ id: String) -> StoreCore.Transaction? {
        guard let entry = state.entries[id], entry.accountID == accountID else { return nil }
        let s = entry.transaction.state
        return s == .purchased || s == .restored ? entry.transaction : nil
    }

    /// Whether the app finished the transaction.
    package func isFinished(_ id: String) -> Bool { state.entries[id]?.finished ?? false }

    /// Whether a transaction is one the server lists in histories (not a restored copy).
    package static func isListed(_ transaction: StoreCore.Transaction) -> Bool { transaction.state == .purchased }

    /// The number of positions `page` walks over (every journal entry, listed or not).
    package var positionCount: Int { state.order.count }

    /// Up to `limit` listed transactions matching `filter`, walking journal positions from
    /// `position` (the first or, descending, the last by default).
    /// - Returns: the transactions, the position to continue from, and whether any remain.
    package func page(
        from position: Int?, ascending: Bool, limit: Int, matching filter: (StoreCore.Transaction) -> Bool
    ) -> (transactions: [StoreCore.Transaction], next: Int, hasMore: Bool) {
        let order = state.order
        var index = position ?? (ascending ? 0 : order.count - 1)
        var found: [StoreCore.Transaction] = []
        while index >= 0 && index < order.count {
            if let entry = state.entries[order[index]], entry.accountID == accountID,
                Self.isListed(entry.transaction), filter(entry.transaction)
            {
                if found.count == limit { return (found, index, true) }
                found.append(entry.transaction)
            }
            index += ascending ? 1 : -1
        }
        return (found, index, false)
    }

    /// Where a walk of the account's refunds stands: the last refund a page returned.
    package struct RefundMark: Hashable, Sendable {
        /// Its revocation date, exactly as the store keeps it.
        package let revocationDate: Date
        /// Its transaction ID.
        package let transactionID: String

        /// A mark at a refund.
        package init(revocationDate: Date, transactionID: String) {
            self.revocationDate = revocationDate
            self.transactionID = transactionID
        }

        /// Whether `self` comes before `other` in Apple's order: by revocation date, then ID.
        func precedes(_ other: RefundMark) -> Bool {
            revocationDate != other.revocationDate
                ? revocationDate < other.revocationDate : JournalState.precedes(transactionID, other.transactionID)
        }
    }

    /// Up to `limit` of the account's refunded transactions (listed ones: not restored copies)
    /// after `mark`, or from the first, in Apple's order: by revocation date, then transaction
    /// ID. So a mark kept from a page returns every refund made since, of older purchases too;
    /// a reversed refund is none (no revocation date) until it is refunded again. A refund marks
    /// its purchase in place however old it is, so this reads every transaction of the store.
    /// - Returns: the transactions, and whether more follow them.
    package func refunds(after mark: RefundMark?, limit: Int) -> (transactions: [StoreCore.Transaction], hasMore: Bool)
    {
        var refunded: [(mark: RefundMark, transaction: StoreCore.Transaction)] = []
        for entry in state.orderedEntries where entry.accountID == accountID && Self.isListed(entry.transaction) {
            guard let date = entry.transaction.revocationDate else { continue }
            let at = RefundMark(revocationDate: date, transactionID: entry.id)
            if let mark, !mark.precedes(at) { continue }
            refunded.append((at, entry.transaction))
        }
        refunded.sort { $0.mark.precedes($1.mark) }
        return (refunded.prefix(limit).map(\.transaction), refunded.count > limit)
    }

    /// Every listed transaction of the account, oldest first.
    package var listedTransactions: [StoreCore.Transaction] {
        state.orderedEntries.filter { $0.accountID == accountID && Self.isListed($0.transaction) }.map(\.transaction)
    }

    /// Every transaction of the account (any state), oldest first: what an app receipt is made from.
    package var accountTransactions: [StoreCore.Transaction] {
        state.orderedEntries.filter { $0.accountID == accountID }.map(\.transaction)
    }

    /// The account's subscriptions, oldest first, with the transaction of each one's current period.
    package var subscriptions: [(lifecycle: SubscriptionLifecycle, latest: StoreCore.Transaction)] {
        state.subscriptions(accountID: accountID).compactMap { stored in
            state.entries[stored.latestTransactionID].map { (stored.lifecycle, $0.transaction) }
        }
    }

    /// The subscriptions family members share with the account: each purchaser's lifecycle, the
    /// account's own original transaction ID of the share, and its latest shared transaction.
    package var sharedSubscriptions:
        [(lifecycle: SubscriptionLifecycle, originalTransactionID: String, latest: StoreCore.Transaction)]
    {
        SharedRenewal.shared(with: accountID, in: state).compactMap { stored, memberOriginalTransactionID in
            guard
                let latest = state.entries(originalTransactionID: memberOriginalTransactionID).last(where: {
                    $0.accountID == accountID && Self.isListed($0.transaction)
                })
            else { return nil }
            return (stored.lifecycle, memberOriginalTransactionID, latest.transaction)
        }
    }

    /// The account's subscription that a transaction belongs to.
    package func subscription(of transaction: StoreCore.Transaction) -> SubscriptionLifecycle? {
        guard let group = transaction.subscriptionGroupID else { return nil }
        return state.subscription(accountID: accountID, groupID: group)?.lifecycle
    }

    /// The purchase an Apple-style order ID names (`OrderID`), if it is the account's.
    package func transaction(orderID: String) -> StoreCore.Transaction? {
        guard let id = OrderID.transactionID(orderID: orderID), let t = transaction(id), Self.isListed(t) else {
            return nil
        }
        return t
    }

    /// The app account token set through the API for a purchase, by original transaction ID.
    package func appAccountToken(originalTransactionID: String) -> UUID? {
        state.server.appAccountToken(originalTransactionID: originalTransactionID)
    }

    /// Consumption information received for a transaction, oldest first.
    package func consumption(transactionID: String) -> [ConsumptionRecord] {
        state.server.consumption(transactionID: transactionID)
    }

    /// Every transaction's consumption information, by transaction ID.
    package var allConsumption: [String: [ConsumptionRecord]] { state.server.allConsumption }

    /// A subscription's renewal-date extensions, oldest first.
    package func extensions(originalTransactionID: String) -> [RenewalExtension] {
        state.server.extensions(originalTransactionID: originalTransactionID)
    }

    /// A mass extension, by product and request identifier.
    package func massExtension(productID: String, requestIdentifier: String) -> MassRenewalExtension? {
        state.server.massExtension(productID: productID, requestIdentifier: requestIdentifier)
    }
}
