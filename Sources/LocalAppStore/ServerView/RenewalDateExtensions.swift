import Foundation
import StoreCore

/// How an extension request ended, as Apple's API distinguishes it.
package enum ExtensionOutcome: Hashable, Sendable {
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

/// Apple's rules for extending subscription renewal dates (Extend a Subscription Renewal Date,
/// Extend Subscription Renewal Dates for All Active Subscribers), as journal records: pure
/// functions of the journal's state, which the server view journals.
enum RenewalDateExtensions {
    /// Apple's limit: two extensions per subscription in any 365 days.
    static let maximumPerYear = 2

    /// The records that extend one subscription of `account` by `days` at the store's time
    /// rate (applied to `state`): its renewal date, and its current period's transactions'
    /// expiry, back in the queue so the app learns of it. Or why it cannot be (then `state` is
    /// as it was). A request identifier that extended it already answers that extension again.
    static func extend(
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
        guard earlier.filter({ $0.success && $0.date > yearAgo }).count < maximumPerYear else {
            return ([], .limitReached)
        }
        let oldEnd = lifecycle.periodEnd
        let newEnd = state.settings.storeTimeRate.end(
            of: SubscriptionPeriod(value: days, unit: .day), startingAt: oldEnd)
        stored.lifecycle.extendPeriod(to: newEnd)
        var records: [JournalRecord] = []
        for var entry in state.sameGrant(as: latest) where entry.transaction.expiresDate == oldEnd {
            entry.transaction.expiresDate = newEnd
            // A committed month says where its commitment now ends (it moved by as much).
            if let commitment = entry.transaction.commitmentInfo,
                let moved = stored.lifecycle.billing?.commitment?.expiresDate
            {
                entry.transaction.commitmentInfo = StoreCore.Transaction.CommitmentInfo(
                    billingPeriodNumber: commitment.billingPeriodNumber,
                    totalBillingPeriods: commitment.totalBillingPeriods, price: commitment.price,
                    expirationDate: moved)
            }
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

    /// The records that extend every active subscription of `productID`, of every account (a
    /// mass extension is for all of the app's customers), optionally only in `storefronts`,
    /// and record the request; a request identifier recorded already answers that record again.
    static func extendAll(
        productID: String, days: Int, reasonCode: Int, requestIdentifier: String, storefronts: [String], now: Date,
        catalog: StoreKitConfiguration, state: inout JournalState
    ) -> (records: [JournalRecord], result: MassRenewalExtension) {
        if let done = state.server.massExtension(productID: productID, requestIdentifier: requestIdentifier) {
            return ([], done)
        }
        var records: [JournalRecord] = []
        var succeeded = 0
        var failed = 0
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
            let (extra, outcome) = extend(
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
}
