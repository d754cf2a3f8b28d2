import Foundation
import StoreCore

/// What the local App Store Server reads and writes: a snapshot to answer from, and the
/// changes Apple's API can make (consumption information, app account tokens, renewal-date
/// extensions), each one durable journal write.
extension LocalAppStore {
    /// How an extension request ended, as Apple's API distinguishes it.
    public enum ExtensionOutcome: Hashable, Sendable {
        /// Extended: the record, with the new renewal date.
        case extended(RenewalExtension)
        /// No subscription has this original transaction ID.
        case notFound
        /// The subscription is not eligible (Apple's list): expired, in billing retry or grace,
        /// refunded, or in a free offer period.
        case ineligible
        /// The subscription was extended twice in the last 365 days already.
        case limitReached
    }

    /// Apple's limit: two extensions per subscription in any 365 days.
    public static let maximumExtensionsPerYear = 2

    /// The store as it is now (other processes' changes read first).
    /// - Throws: `LocalAppStoreError.io` or `.corrupt` when the journal cannot be read.
    public func snapshot() throws(LocalAppStoreError) -> StoreSnapshot {
        try refresh()
        let number = published.publish(journal.state, inode: journal.inode, length: journal.offset)
        return StoreSnapshot(
            state: journal.state, accountID: configuration.account.id, now: configuration.clock.now, publication: number
        )
    }

    /// The store as it is now, taken on the caller's thread without waiting for the actor:
    /// the state the last `snapshot()` read, when no process (this one included) has written
    /// the journal since (one `stat`). Nil otherwise: then `snapshot()` reads the news.
    public nonisolated func currentSnapshot() -> StoreSnapshot? {
        guard let (state, number) = published.current() else { return nil }
        return StoreSnapshot(
            state: state, accountID: configuration.account.id, now: configuration.clock.now, publication: number)
    }

    /// Finishes one of the account's purchases for the App Store Server API's Finish
    /// Transaction, as the app's finish would, but durably (the server's answer promises it):
    /// the Transaction Manager shows it finished, the engine hears it removed, and no later
    /// start delivers it again.
    /// - Returns: false when the account has no such purchase (nothing is written); true when
    ///   it is finished, now or before.
    public func finishForServer(transactionID: String) throws(LocalAppStoreError) -> Bool {
        let account = configuration.account.id
        let (known, _) = try transactAndAnnounce { state throws(LocalAppStoreError) in
            guard var entry = state.entries[transactionID], entry.accountID == account,
                entry.transaction.state == .purchased || entry.transaction.state == .restored
            else { return ([], false) }
            guard !entry.finished else { return ([], true) }
            entry.finished = true
            return ([JournalRecord.make(entry)], true)
        }
        return known
    }

    /// Records consumption information for one of the account's transactions.
    /// - Returns: false when the account has no such transaction (nothing is written).
    @discardableResult
    public func recordConsumption(_ record: ConsumptionRecord) throws(LocalAppStoreError) -> Bool {
        let account = configuration.account.id
        let (known, _) = try journal.transact { state throws(LocalAppStoreError) in
            guard let entry = state.entries[record.transactionID], entry.accountID == account,
                entry.transaction.state == .purchased || entry.transaction.state == .restored
            else { return ([], false) }
            return ([JournalRecord.make(ServerRecord(consumption: record))], true)
        }
        return known
    }

    /// Sets the app account token of a purchase (by its original transaction ID): every
    /// transaction of it (and every renewal to come) carries the token, lowercase, as its
    /// `appAccountToken` from now on, in the app's signed transactions as in the server's, in
    /// the same durable write as the record of the request.
    /// - Returns: false when the account has no such original transaction (nothing is written).
    @discardableResult
    public func setAppAccountToken(_ token: UUID, originalTransactionID: String) throws(LocalAppStoreError) -> Bool {
        let account = configuration.account.id
        let text = token.uuidString.lowercased()
        let (known, changed) = try journal.transact { state throws(LocalAppStoreError) in
            guard let entry = state.entries[originalTransactionID], entry.accountID == account,
                entry.transaction.originalTransactionID == originalTransactionID,
                entry.transaction.state == .purchased
            else { return ([], false) }
            var records: [JournalRecord] = []
            // Restorable products' periods and copies by their original ID; a consumable is its own.
            var purchase = state.entries(originalTransactionID: originalTransactionID)
            if !purchase.contains(where: { $0.id == entry.id }) { purchase.append(entry) }
            for var other in purchase
            where other.accountID == account && other.transaction.payment.applicationUsername != text {
                other.transaction = other.transaction.withApplicationUsername(text)
                records.append(JournalRecord.make(other))
            }
            let record = AppAccountTokenRecord(originalTransactionID: originalTransactionID, token: token)
            records.append(JournalRecord.make(ServerRecord(appAccountToken: record)))
            return (records, true)
        }
        announceRevisions(changed)
        return known
    }

    /// Extends an active subscription's current period by `days` (at the store's time rate):
    /// its renewal date, its transactions' expiry and so the app's entitlement move; the
    /// period's transactions go back in the queue so the app learns of the new expiry.
    /// - Parameters:
    ///   - originalTransactionID: the subscription's original transaction ID.
    ///   - days: 1…90 (the caller checks the range).
    ///   - reasonCode: Apple's `extendReasonCode`.
    ///   - requestIdentifier: the caller's identifier; the same identifier again returns the
    ///     first answer without extending twice.
    /// - Throws: `LocalAppStoreError` when the journal cannot be written.
    public func extendRenewalDate(
        originalTransactionID: String, days: Int, reasonCode: Int, requestIdentifier: String
    ) throws(LocalAppStoreError) -> ExtensionOutcome {
        let account = configuration.account.id
        let now = configuration.clock.now
        let catalog = configuration.catalog
        let (outcome, changed) = try journal.transact { state throws(LocalAppStoreError) in
            Self.extend(
                originalTransactionID, days: days, reasonCode: reasonCode, requestIdentifier: requestIdentifier,
                account: account, now: now, catalog: catalog, state: &state)
        }
        announce(changed)
        if case .extended = outcome { subscriptionsChanged() }
        return outcome
    }

    /// Extends every active subscription of `productID` (optionally only in `storefronts`)
    /// by `days`, and records the request for its status.
    /// - Returns: the record, with how many were extended and how many could not be.
    /// - Throws: `LocalAppStoreError` when the journal cannot be written.
    public func extendRenewalDates(
        productID: String, days: Int, reasonCode: Int, requestIdentifier: String, storefronts: [String]
    ) throws(LocalAppStoreError) -> MassRenewalExtension {
        let now = configuration.clock.now
        let catalog = configuration.catalog
        let (result, changed) = try journal.transact { state throws(LocalAppStoreError) in
            if let done = state.server.massExtension(productID: productID, requestIdentifier: requestIdentifier) {
                return ([], done)
            }
            var records: [JournalRecord] = []
            var succeeded = 0
            var failed = 0
            // Every account's subscribers: a mass extension is for all of the app's customers.
            let subscribers = state.subscriptions.values.filter { $0.lifecycle.productID == productID }
                .sorted { $0.lifecycle.originalTransactionID < $1.lifecycle.originalTransactionID }
            for stored in subscribers {
                guard !stored.lifecycle.isExpired, stored.lifecycle.isActive(at: now) else { continue }
                if !storefronts.isEmpty,
                    !storefronts.contains(state.entries[stored.latestTransactionID]?.transaction.storefront ?? "")
                {
                    continue
                }
                // `extend` changes the state only when it extends (it applies its records).
                let (extra, outcome) = Self.extend(
                    stored.lifecycle.originalTransactionID, days: days, reasonCode: reasonCode,
                    requestIdentifier: requestIdentifier, account: stored.accountID, now: now, catalog: catalog,
                    state: &state)
                if case .extended = outcome {
                    succeeded += 1
                    records += extra
                } else {
                    failed += 1
                }
            }
            let mass = MassRenewalExtension(
                requestIdentifier: requestIdentifier, productID: productID, days: days, reasonCode: reasonCode,
                storefronts: storefronts, completeDate: now, succeededCount: succeeded, failedCount: failed)
            records.append(JournalRecord.make(ServerRecord(massExtension: mass)))
            return (records, mass)
        }
        announce(changed)
        subscriptionsChanged()
        return result
    }

    /// The records that extend one subscription (applied to `state`), or why it cannot be (then
    /// `state` is as it was).
    private static func extend(
        _ originalID: String, days: Int, reasonCode: Int, requestIdentifier: String, account: String, now: Date,
        catalog: StoreKitConfiguration, state: inout JournalState
    ) -> (records: [JournalRecord], result: ExtensionOutcome) {
        guard var stored = state.subscriptions[originalID], stored.accountID == account else { return ([], .notFound) }
        let earlier = state.server.extensions(originalTransactionID: originalID)
        if let same = earlier.first(where: { $0.requestIdentifier == requestIdentifier && $0.success }) {
            return ([], .extended(same))
        }
        // Apple's ineligible states the store can know: expired, billing retry (grace included:
        // its period's end is past), refunded, and a free offer period (a free trial, or a free
        // promotional, code or win-back offer) of any of the period's transactions.
        let lifecycle = stored.lifecycle
        guard !lifecycle.isExpired, lifecycle.billingRetryStart == nil, lifecycle.periodEnd > now,
            let latest = state.entries[stored.latestTransactionID], latest.transaction.revocationDate == nil,
            !state.sameGrant(as: latest).contains(where: { catalog.offer(of: $0.transaction)?.paymentMode == .free })
        else { return ([], .ineligible) }
        let yearAgo = now.addingTimeInterval(-365 * 86_400)
        guard earlier.filter({ $0.success && $0.date > yearAgo }).count < maximumExtensionsPerYear else {
            return ([], .limitReached)
        }
        let oldEnd = lifecycle.periodEnd
        let newEnd = state.settings.storeTimeRate.end(
            of: SubscriptionPeriod(value: days, unit: .day), startingAt: oldEnd)
        stored.lifecycle.extendPeriod(to: newEnd)
        var records: [JournalRecord] = []
        for var entry in state.sameGrant(as: latest) where entry.transaction.expiresDate == oldEnd {
            entry.transaction.expiresDate = newEnd
            entry.finished = false
            records.append(JournalRecord.make(entry))
        }
        records.append(JournalRecord.make(stored))
        let record = RenewalExtension(
            originalTransactionID: originalID, webOrderLineItemID: latest.transaction.webOrderLineItemID, days: days,
            reasonCode: reasonCode, requestIdentifier: requestIdentifier, date: now, effectiveDate: newEnd,
            success: true)
        records.append(JournalRecord.make(ServerRecord(renewalExtension: record)))
        for record in records { _ = state.apply(record) }
        return (records, .extended(record))
    }

    /// The Apple-style order ID of a purchase (`OrderID`); nil for an ID this store never made.
    public nonisolated static func orderID(forTransactionID id: String) -> String? { OrderID.make(transactionID: id) }
}

extension StoreCore.Transaction {
    /// This transaction with its payment's application username (the app account token) replaced.
    func withApplicationUsername(_ username: String?) -> StoreCore.Transaction {
        let p = payment
        return StoreCore.Transaction(
            transactionID: transactionID, originalTransactionID: originalTransactionID, productID: productID,
            productType: productType,
            payment: Payment(
                productID: p.productID, quantity: p.quantity, applicationUsername: username, orderData: p.orderData,
                offerID: p.offerID, requestID: p.requestID),
            state: state, purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate,
            expiresDate: expiresDate,
            revocationDate: revocationDate, revocationReason: revocationReason, webOrderLineItemID: webOrderLineItemID,
            price: price, currencyCode: currencyCode, storefront: storefront, signedTransaction: signedTransaction,
            error: error, subscriptionGroupID: subscriptionGroupID, isUpgraded: isUpgraded, offerType: offerType,
            offerID: offerID)
    }
}
