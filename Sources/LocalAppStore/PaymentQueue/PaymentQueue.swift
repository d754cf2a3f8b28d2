import Foundation
import StoreCore

/// The payment queue: a payment becomes a `.purchasing` transaction of the account, waits in
/// the queue through its settling (`Settlement.swift`, deciding through `ChargingRules`) until
/// the app finishes it, and a restore queues copies of what the account bought. The app
/// reaches it through the `StoreBackend` surface; it has no door of its own.
///
/// Every function runs on the store's executor (`isolated LocalAppStore`), and every change
/// is one `transact`.
enum PaymentQueue {
    /// Queues a payment and returns its transaction in state `.purchasing`; after the latency,
    /// the store settles it (`scheduleSettlement`). A payment whose `requestID` is already
    /// queued returns that transaction again: a payment is never charged twice.
    /// - Throws: `.paymentNotAllowed`, `.productNotAvailable`, `.paymentInvalid` (bad quantity
    ///   or offer), the offer's refusal, `.systemError` when the state cannot be written.
    static func add(_ payment: Payment, in store: isolated LocalAppStore) throws(StoreError) -> StoreCore.Transaction {
        try LocalAppStoreError.translating { () throws(LocalAppStoreError) in try store.refresh() }
        // The state is read where it is used, never kept in a local: a copy alive across the
        // `transact` below would make the journal copy its collections to apply the new entry.
        guard store.state.settings.paymentsAllowed else { throw .paymentNotAllowed }
        guard let product = store.configuration.catalog.product(id: payment.productID) else {
            throw .productNotAvailable(productID: payment.productID)
        }
        let type = ProductLocalizer.type(of: product.kind)
        guard Payment.quantities.contains(payment.quantity) else {
            throw .paymentInvalid(
                "quantity \(payment.quantity) is outside \(Payment.quantities.lowerBound)…\(Payment.quantities.upperBound)"
            )
        }
        guard payment.quantity == 1 || type == .consumable else {
            throw .paymentInvalid("only consumables can be bought more than one at a time")
        }
        // A signed offer is judged as the App Store judges it; an offer ID alone is the
        // testing option (SKTestSession's `.promotionalOffer(id:)`), checked for existence.
        var offerNonce: UsedOfferNonce?
        if let offer = payment.promotionalOffer {
            offerNonce = try store.offers.promotionalOfferCheck().check(
                offer, payment: payment, product: product, state: store.state)
        } else if let offerID = payment.offerID, product.subscription?.promotionalOffers.offer(named: offerID) == nil {
            throw .invalidOfferIdentifier("\(payment.productID) has no promotional offer \(offerID)")
        }
        // A billing plan the product is not sold by is refused now, not at the charge.
        if product.subscription != nil || payment.billingPlanType != nil {
            _ = try BillingPlans(catalog: store.configuration.catalog).plan(for: payment, of: product)
        }
        // The transaction carries the promotional offer's own ID, whichever name the payment used.
        let promotionalID = payment.offerID.map { name in
            product.subscription?.promotionalOffers.offer(named: name)?.transactionOfferID(as: .promotional) ?? name
        }
        let account = store.accountID
        let now = store.configuration.clock.now
        let redemption = SubscriptionOfferRedemption(accountID: account, now: now)
        let special = try redemption.offer(for: payment, product: product, state: store.state)
        // A one-time product's code sets the price now; a subscription's offers price it as it settles.
        let price =
            special?.oneTime.map {
                store.configuration.catalog.price(of: $0, for: product, in: store.localizer.storefront)
            }
            ?? store.localizer.price(of: product)
        let storefront = store.localizer.storefront.code
        guard let token = store.ownerToken else {
            throw StoreJournal.readOnlyError(store.configuration.stateDirectory.path).storeError
        }
        // Not synced: a crash that loses a payment just queued loses nothing charged (the
        // charge is synced, and its sync makes this line durable too), and the app has no
        // transaction to deliver yet; the purchase simply did not happen.
        // The nonce and the code spent with the payment are lost with it, consistently.
        let (entry, _) = try LocalAppStoreError.translating {
            () throws(LocalAppStoreError) -> (result: QueueEntry, changed: [QueueEntry]) in
            try store.transactAndAnnounce(sync: false) { (state: inout JournalState) throws(LocalAppStoreError) in
                if let existing = state.entry(requestID: payment.requestID), existing.accountID == account {
                    return ([], existing)
                }
                let transaction = StoreCore.Transaction(
                    transactionID: state.allocateTransactionID(), productID: payment.productID, productType: type,
                    payment: payment, state: .purchasing, purchaseDate: now, price: price.amount,
                    currencyCode: price.currencyCode, storefront: storefront,
                    subscriptionGroupID: product.subscription?.groupID,
                    offerType: special?.kind ?? (payment.offerID == nil ? nil : .promotional),
                    offerID: special?.id ?? promotionalID)
                let entry = QueueEntry(
                    transaction: transaction, accountID: account, charged: false, finished: false, pending: nil,
                    owner: token)
                var records = [JournalRecord.make(entry)]
                if var nonce = offerNonce {
                    do throws(StoreError) {
                        try PromotionalOfferCheck.checkNonce(nonce, in: state)
                    } catch {
                        throw .refused(error)
                    }
                    nonce.transactionID = entry.id
                    records.append(JournalRecord.make(StoreKitRecord(usedNonce: nonce)))
                }
                // The code is used up with the payment, in one write; another process may
                // have redeemed it since the check above.
                if let text = payment.offerCode {
                    var code: OfferCode
                    do throws(StoreError) {
                        code = try redemption.redeemable(text, state: state)
                    } catch {
                        throw .refused(error)
                    }
                    code.redeemedAt = now
                    code.redeemedBy = account
                    code.transactionID = entry.id
                    records.append(JournalRecord.make(StoreKitRecord(offerCode: code)))
                }
                return (records, entry)
            }
        }
        if entry.transaction.state == .purchasing && entry.owner == token {
            scheduleSettlement(of: entry.id, in: store)
        }
        return entry.transaction
    }

    /// Removes a transaction from the queue (it stays in the history).
    /// - Throws: `.unknownTransaction` when it is not in the queue; `.paymentInvalid` (naming
    ///   it) when it is still `.purchasing`.
    static func finish(_ transactionID: String, in store: isolated LocalAppStore) throws(LocalAppStoreError) {
        let account = store.accountID
        // Not synced: if a crash loses the finish, the transaction is delivered again and the
        // engine, which recorded it, finishes it again.
        _ = try store.transactAndAnnounce(sync: false) { state throws(LocalAppStoreError) in
            guard var entry = state.entries[transactionID], entry.accountID == account, !entry.finished else {
                throw .unknownTransaction(transactionID)
            }
            guard entry.transaction.state != .purchasing else {
                throw .notPending(transactionID: transactionID, state: "purchasing", expected: "finishable")
            }
            entry.finished = true
            return ([JournalRecord.make(entry)], ())
        }
    }

    /// What finishing a purchase from the server journals: its entry finished (none when it is
    /// already). Unlike the app's finish, only a purchased or restored transaction qualifies.
    /// - Returns: nil when the account has no such purchase.
    static func finishedForServer(
        _ transactionID: String, accountID: String, in state: JournalState
    ) -> [JournalRecord]? {
        guard var entry = state.entries[transactionID], entry.accountID == accountID,
            entry.transaction.state == .purchased || entry.transaction.state == .restored
        else { return nil }
        guard !entry.finished else { return [] }
        entry.finished = true
        return [JournalRecord.make(entry)]
    }

    /// The account's unfinished transactions, oldest first.
    static func unfinished(in store: isolated LocalAppStore) -> [StoreCore.Transaction] {
        let account = store.accountID
        return store.state.unfinishedEntries.filter { $0.accountID == account }.map(\.transaction)
    }

    /// Every entry of the account, finished or not, oldest first (the whole history is read).
    /// - Throws: `.corrupt` or `.io` when the compacted history cannot be read.
    static func accountEntries(in store: isolated LocalAppStore) throws(LocalAppStoreError) -> [QueueEntry] {
        let account = store.accountID
        return try store.checked(store.state.orderedEntries.filter { $0.accountID == account })
    }

    // MARK: - Restore

    /// Queues what a restore of `scope` brings back as new `.restored` transactions (see
    /// `restoredCopies`), in one durable write, and announces them.
    static func restore(
        applicationUsername: String?, scope: RestoreScope, in store: isolated LocalAppStore
    ) throws(LocalAppStoreError) -> [StoreCore.Transaction] {
        let account = store.accountID
        let now = store.configuration.clock.now
        let (restored, _) = try store.transactAndAnnounce { state throws(LocalAppStoreError) in
            restoredCopies(
                accountID: account, applicationUsername: applicationUsername, scope: scope, at: now, state: &state)
        }
        return store.signed(restored)
    }

    /// New `.restored` copies of every purchase of `accountID` (for `applicationUsername` when
    /// given) whose product type `scope` restores, and every renewal of a subscription; a
    /// non-consumable bought again (delivered free) only through its first purchase. Not
    /// revoked ones.
    /// - Returns: the records to journal and the copies.
    static func restoredCopies(
        accountID account: String, applicationUsername: String?, scope: RestoreScope, at now: Date,
        state: inout JournalState
    ) -> (records: [JournalRecord], result: [StoreCore.Transaction]) {
        // Only the entries of products the scope restores are read from the compacted history.
        let originals = state.entries(where: { $0.restorable(in: scope) }).filter { entry in
            let transaction = entry.transaction
            return entry.accountID == account && transaction.state == .purchased
                && transaction.revocationDate == nil
                && (transaction.productType != .nonConsumable || transaction.originalTransactionID == entry.id)
                && (applicationUsername == nil || transaction.payment.applicationUsername == applicationUsername)
        }
        var records: [JournalRecord] = []
        var restored: [StoreCore.Transaction] = []
        for original in originals {
            let old = original.transaction
            let transaction = StoreCore.Transaction(
                transactionID: state.allocateTransactionID(), originalTransactionID: old.originalTransactionID,
                productID: old.productID, productType: old.productType, payment: old.payment, state: .restored,
                purchaseDate: now, originalPurchaseDate: old.originalPurchaseDate, expiresDate: old.expiresDate,
                webOrderLineItemID: old.webOrderLineItemID, price: old.price, currencyCode: old.currencyCode,
                storefront: old.storefront, subscriptionGroupID: old.subscriptionGroupID,
                isUpgraded: old.isUpgraded, offerType: old.offerType, offerID: old.offerID,
                ownershipType: old.ownershipType)
            records.append(
                JournalRecord.make(
                    QueueEntry(
                        transaction: transaction, accountID: account, charged: false, finished: false, pending: nil,
                        owner: nil)))
            restored.append(transaction)
        }
        return (records, restored)
    }

    // MARK: - What the app finished

    /// The account's purchased and restored transactions the app finished, oldest first, unsigned.
    /// - Throws: `.corrupt` or `.io` when the history cannot be read.
    static func finishedTransactions(
        in store: isolated LocalAppStore
    ) throws(LocalAppStoreError) -> [StoreCore
        .Transaction]
    {
        try store.refresh()
        // Unsigned: the engine compares IDs, and a long history would cost a JWS each.
        return try accountEntries(in: store)
            .filter { $0.finished && ($0.transaction.state == .purchased || $0.transaction.state == .restored) }
            .map(\.transaction)
    }

    /// The digest of `finishedTransactions`' IDs, from the history index's `finished` table and
    /// the journal's recent entries: its cost does not grow with the history.
    static func finishedDigest(in store: isolated LocalAppStore) throws(LocalAppStoreError) -> TransactionDigest {
        try store.refresh()
        return try store.checked(store.state.finishedDigest(accountID: store.accountID))
    }
}
