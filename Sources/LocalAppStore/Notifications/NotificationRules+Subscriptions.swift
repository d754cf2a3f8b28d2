import Foundation
internal import Receipts
import StoreCore

/// The subscription side of `NotificationRules`: plan and auto-renew changes within a period,
/// billing failures, grace periods ending, expiries, extensions, refund requests and price
/// increases.
extension NotificationRules.Pass {
    mutating func subscriptionChanged(from old: StoredSubscription?, to new: StoredSubscription) {
        // A new subscription is notified by its charge (SUBSCRIBED).
        guard let old else { return }
        let o = old.lifecycle
        let n = new.lifecycle
        let original = n.originalTransactionID
        let latest = entryAfter(new.latestTransactionID)?.transaction
        if o.webOrderLineItemID == n.webOrderLineItemID, !o.isExpired, !n.isExpired {
            // A change of the plan renewed into (a commitment's end) is a change of renewal
            // preference too, without a subtype.
            if o.autoRenewProductID != n.autoRenewProductID || o.renewalBillingPlanType != n.renewalBillingPlanType {
                // Back to the current product undoes a downgrade (no subtype).
                let subtype: Subtype? =
                    n.autoRenewProductID == n.productID || o.autoRenewProductID == n.autoRenewProductID
                    ? nil : .downgrade
                let withOffer =
                    latest.map { !(entryAfter($0.transactionID)?.charged ?? true) && $0.payment.offerID != nil }
                    ?? false
                notify(
                    withOffer ? .offerRedeemed : .didChangeRenewalPref, subtype, transaction: latest,
                    accountID: new.accountID, subscription: new)
            }
            if o.willAutoRenew != n.willAutoRenew {
                notify(
                    .didChangeRenewalStatus, n.willAutoRenew ? .autoRenewEnabled : .autoRenewDisabled,
                    transaction: latest,
                    accountID: new.accountID, subscription: new)
            }
        }
        if let retry = n.billingRetryStart, retry != o.billingRetryStart || o.isExpired && !n.isExpired {
            let grace =
                n.graceEnd != nil || (n.isExpired && settings.gracePeriod && n.expiration?.intent == .billingError)
            notify(
                .didFailToRenew, grace ? .gracePeriod : nil, transaction: latest, accountID: new.accountID,
                subscription: new)
        }
        // The grace period ended (notified before an expiry in the same write).
        if let retry = n.billingRetryStart ?? o.billingRetryStart,
            let graceEnd = n.graceEnd ?? (o.billingRetryStart == retry ? o.graceEnd : nil),
            graceEnd <= now, !n.isExpired || n.expiration?.intent == .billingError
        {
            notify(
                .gracePeriodExpired, nil, transaction: latest, accountID: new.accountID, subscription: new,
                key: Self.graceKey(original, retry))
        }
        if let expiration = n.expiration, o.expiration == nil {
            let subtype: Subtype?
            switch expiration.intent {
            case .cancelled: subtype = .voluntary
            case .billingError: subtype = .billingRetry
            case .priceIncrease: subtype = .priceIncrease
            case .productUnavailable: subtype = .productNotForSale
            default:
                // A refund ends the subscription: REFUND says so.
                if refunded.contains(original) { return }
                subtype = nil
            }
            notify(.expired, subtype, transaction: latest, accountID: new.accountID, subscription: new)
        }
    }

    /// `GRACE_PERIOD_EXPIRED` for subscriptions whose grace period ended while nothing in this
    /// write changed them (the renewal timer wakes the store at its end).
    mutating func gracePeriodsEnded() {
        for stored in before.subscriptions.values.sorted(by: {
            $0.lifecycle.originalTransactionID < $1.lifecycle.originalTransactionID
        }) {
            let original = stored.lifecycle.originalTransactionID
            guard subscriptionAfterIsUnchanged(original), let retry = stored.lifecycle.billingRetryStart,
                let graceEnd = stored.lifecycle.graceEnd, graceEnd <= now, !stored.lifecycle.isExpired
            else { continue }
            notify(
                .gracePeriodExpired, nil, transaction: entryAfter(stored.latestTransactionID)?.transaction,
                accountID: stored.accountID, subscription: stored, key: Self.graceKey(original, retry))
        }
    }

    private func subscriptionAfterIsUnchanged(_ originalID: String) -> Bool {
        !records.contains { $0.kind == .subscription && $0.subscription?.lifecycle.originalTransactionID == originalID }
    }

    static func graceKey(_ originalID: String, _ retryStart: Date) -> String {
        "grace-expired:\(originalID):\(retryStart.appStoreMilliseconds)"
    }

    // MARK: - The App Store Server's records

    mutating func extended(_ e: RenewalExtension) {
        guard let stored = subscriptionAfter(e.originalTransactionID) else { return }
        notify(
            .renewalExtended, nil, transaction: entryAfter(stored.latestTransactionID)?.transaction,
            accountID: stored.accountID, subscription: stored)
    }

    /// A mass extension: `FAILURE` for each active subscriber it could not extend, then `SUMMARY`.
    mutating func massExtended(_ m: MassRenewalExtension) {
        let extended = Set(
            records.compactMap { record -> String? in
                guard let e = record.server?.renewalExtension, e.requestIdentifier == m.requestIdentifier, e.success
                else { return nil }
                return e.originalTransactionID
            })
        let subscribers = before.subscriptions.values.filter { $0.lifecycle.productID == m.productID }
            .sorted { $0.lifecycle.originalTransactionID < $1.lifecycle.originalTransactionID }
        for stored in subscribers where !stored.lifecycle.isExpired && stored.lifecycle.isActive(at: now) {
            let latest = before.entries[stored.latestTransactionID]?.transaction
            if !m.storefronts.isEmpty, !m.storefronts.contains(latest?.storefront ?? "") { continue }
            guard !extended.contains(stored.lifecycle.originalTransactionID) else { continue }
            notify(.renewalExtension, .failure, transaction: latest, accountID: stored.accountID, subscription: stored)
        }
        notify(.renewalExtension, .summary, transaction: nil, accountID: nil) { n in
            var summary = Summary()
            summary.productId = m.productID
            summary.requestIdentifier = m.requestIdentifier
            summary.storefrontCountryCodes = m.storefronts.isEmpty ? nil : m.storefronts
            summary.succeededCount = Int64(m.succeededCount)
            summary.failedCount = Int64(m.failedCount)
            n.summary = summary
        }
    }

    // MARK: - Refund requests and price increases

    /// A refund request made or decided (`storekit` records; the app's `beginRefundRequest`
    /// and the Transaction Manager's decision): `CONSUMPTION_REQUEST` when a consumable or an
    /// auto-renewable subscription is asked for (Apple asks for consumption data of those only),
    /// `REFUND_DECLINED` on a decline; an approval's `REFUND` is the revocation's own.
    mutating func refundRequestChanged(_ r: RefundRequest) {
        guard before.storeKit.refundRequests[r.id]?.status != r.status else { return }
        let t = entryAfter(r.transactionID)?.transaction
        switch r.status {
        case .pending:
            guard t?.productType == .consumable || t?.productType == .autoRenewable else { return }
            notify(.consumptionRequest, nil, transaction: t, accountID: r.accountID) {
                $0.consumptionRequestReason = r.consumptionRequestReason
            }
        case .declined:
            notify(.refundDeclined, nil, transaction: t, accountID: r.accountID)
        default:
            break  // approved: the refund's own REFUND
        }
    }

    mutating func priceIncreaseChanged(_ p: PriceIncrease) {
        let old = before.notifications.priceIncreases[p.originalTransactionID]
        guard old?.status != p.status || old?.date != p.date, let stored = subscriptionAfter(p.originalTransactionID)
        else { return }
        let latest = entryAfter(stored.latestTransactionID)?.transaction
        switch p.status {
        case .pending:
            notify(.priceIncrease, .pending, transaction: latest, accountID: p.accountID, subscription: stored)
        case .accepted:
            notify(.priceIncrease, .accepted, transaction: latest, accountID: p.accountID, subscription: stored)
        default: break  // declined: nothing now; EXPIRED/PRICE_INCREASE at the renewal date
        }
    }
}
