import Foundation
internal import Receipts
import StoreCore

/// Which App Store Server Notifications a journal write causes, as Apple's tables pair
/// `notificationType` and `subtype` (pure: the state before the write, the write's records and
/// the store clock's now). `StoreJournal` appends what it returns to the same durable write, so
/// an event and its notification are journaled together or not at all.
///
/// Each change is read off the records' last versions against the state before: a charge is
/// `SUBSCRIBED`, `DID_RENEW`, `DID_CHANGE_RENEWAL_PREF`/`UPGRADE`, `OFFER_REDEEMED` or
/// `ONE_TIME_CHARGE`; a revocation `REFUND` (undone: `REFUND_REVERSED`), of a member's
/// `FAMILY_SHARED` transaction `REVOKE`; a subscription's
/// changes in its period `DID_CHANGE_RENEWAL_PREF`/`STATUS`, `DID_FAIL_TO_RENEW`,
/// `GRACE_PERIOD_EXPIRED`, `EXPIRED`; server records `RENEWAL_EXTENDED` and
/// `RENEWAL_EXTENSION`; refund requests (`storekit` records) and price increases their own types. Nothing is made
/// while `notification-url` is off.
struct NotificationRules {
    let now: Date

    /// The notification records the write of `records` on `before` adds.
    func records(before: JournalState, writing records: [JournalRecord]) -> [JournalRecord] {
        let settings = records.last(where: { $0.kind == .settings })?.settings ?? before.settings
        guard settings.notificationURL != nil else { return [] }
        var pass = Pass(before: before, records: records, settings: settings, now: now)
        pass.run()
        let made = pass.made + Self.familyCopies(of: pass.made, before: before, writing: records, now: now)
        return made.map { JournalRecord.make(NotificationRecord(notification: $0)) }
    }

    /// One pass over a write's records, collecting what they notify.
    struct Pass {
        let before: JournalState
        let records: [JournalRecord]
        let settings: LocalStoreSettings
        let now: Date
        /// The notifications made, in order.
        var made: [StoredNotification] = []
        /// The last record of each entry and subscription in the write.
        private var lastEntry: [String: Int] = [:]
        private var lastSubscription: [String: Int] = [:]
        /// Original transaction IDs refunded in this write (their expiry is the refund's).
        var refunded: Set<String> = []
        /// Subscriptions whose first renewal in this write recovered from billing retry.
        var recovered: Set<String> = []
        /// Event keys made in this write.
        var keys: Set<String> = []

        init(before: JournalState, records: [JournalRecord], settings: LocalStoreSettings, now: Date) {
            self.before = before
            self.records = records
            self.settings = settings
            self.now = now
            for (index, record) in records.enumerated() {
                if let entry = record.entry, record.kind == .entry { lastEntry[entry.id] = index }
                if let s = record.subscription, record.kind == .subscription {
                    lastSubscription[s.lifecycle.originalTransactionID] = index
                }
            }
        }

        mutating func run() {
            for (index, record) in records.enumerated() {
                switch record.kind {
                case .entry:
                    if let entry = record.entry, lastEntry[entry.id] == index {
                        entryChanged(from: before.entries[entry.id], to: entry)
                    }
                case .subscription:
                    if let s = record.subscription, lastSubscription[s.lifecycle.originalTransactionID] == index {
                        subscriptionChanged(from: before.subscriptions[s.lifecycle.originalTransactionID], to: s)
                    }
                case .server:
                    if let e = record.server?.renewalExtension, e.success { extended(e) }
                    if let m = record.server?.massExtension { massExtended(m) }
                case .storeKit:
                    if let r = record.storeKit?.refundRequest { refundRequestChanged(r) }
                case .notification:
                    if let p = record.notification?.priceIncrease { priceIncreaseChanged(p) }
                default:
                    break
                }
            }
            gracePeriodsEnded()
        }

        // MARK: - The state after the write

        /// An entry as the write leaves it.
        func entryAfter(_ id: String) -> QueueEntry? {
            if let index = lastEntry[id] { return records[index].entry }
            return before.entries[id]
        }

        /// A subscription as the write leaves it.
        func subscriptionAfter(_ originalID: String) -> StoredSubscription? {
            if let index = lastSubscription[originalID] { return records[index].subscription }
            return before.subscriptions[originalID]
        }

        /// The subscription a transaction belongs to, as the write leaves it.
        func subscriptionAfter(of t: StoreCore.Transaction, accountID: String) -> StoredSubscription? {
            if let s = subscriptionAfter(t.originalTransactionID) { return s }
            guard let group = t.subscriptionGroupID else { return nil }
            return lastSubscription.keys.compactMap(subscriptionAfter).first {
                $0.accountID == accountID && $0.lifecycle.groupID == group
            }
                ?? before.subscription(accountID: accountID, groupID: group)
        }

        // MARK: - Making notifications

        /// Notifies `type`/`subtype` about `transaction` (and its subscription, when it has one).
        mutating func notify(
            _ type: NotificationTypeV2, _ subtype: Subtype?, transaction: StoreCore.Transaction?, accountID: String?,
            subscription: StoredSubscription? = nil, key: String? = nil,
            configure: (inout StoredNotification) -> Void = { _ in }
        ) {
            if let key {
                guard !before.notifications.hasNotified(eventKey: key), keys.insert(key).inserted else { return }
            }
            let stored =
                subscription
                ?? transaction.flatMap { t in
                    t.productType == .autoRenewable
                        ? accountID.flatMap { subscriptionAfter(of: t, accountID: $0) } : nil
                }
            var n = StoredNotification(
                type: type, subtype: subtype, now: now, accountID: accountID, transaction: transaction,
                subscription: stored)
            n.eventKey = key
            if let stored { n.status = status(of: stored) }
            if let stored, let increase = priceIncrease(of: stored.lifecycle.originalTransactionID) {
                n.priceIncrease = increase
                if increase.date >= stored.lifecycle.periodStart {
                    n.priceIncreaseStatus = increase.priceIncreaseStatus
                }
            }
            configure(&n)
            made.append(n)
        }

        /// Apple's subscription status after the write: 1 active, 2 expired, 3 billing retry,
        /// 4 billing grace period, 5 revoked.
        func status(of stored: StoredSubscription) -> Int32 {
            let l = stored.lifecycle
            if entryAfter(stored.latestTransactionID)?.transaction.revocationDate != nil { return 5 }
            if l.isExpired { return 2 }
            if l.billingRetryStart != nil { return l.isInGracePeriod(at: now) ? 4 : 3 }
            return 1
        }

        /// A subscription's price increase, as the write leaves it.
        func priceIncrease(of originalID: String) -> PriceIncrease? {
            records.last { $0.notification?.priceIncrease?.originalTransactionID == originalID }?.notification?
                .priceIncrease
                ?? before.notifications.priceIncreases[originalID]
        }

        // MARK: - Transactions

        mutating func entryChanged(from old: QueueEntry?, to new: QueueEntry) {
            let t = new.transaction
            let wasRevoked = old?.transaction.revocationDate != nil
            if t.ownershipType == .familyShared {
                // A member's shared transaction is never charged; its end is Apple's REVOKE.
                if t.revocationDate != nil, !wasRevoked {
                    notify(.revoke, nil, transaction: t, accountID: new.accountID)
                }
                return
            }
            if new.charged, t.revocationDate != nil, !wasRevoked {
                refunded.insert(t.originalTransactionID)
                notify(.refund, nil, transaction: t, accountID: new.accountID)
                return
            }
            if new.charged, t.revocationDate == nil, wasRevoked {
                notify(.refundReversed, nil, transaction: t, accountID: new.accountID)
                return
            }
            guard new.charged, !(old?.charged ?? false), t.state == .purchased else { return }
            switch t.productType {
            case .autoRenewable: subscriptionCharged(t, accountID: new.accountID)
            case .consumable, .nonConsumable, .nonRenewing:
                notify(.oneTimeCharge, nil, transaction: t, accountID: new.accountID)
            default: break
            }
        }

        /// A new charge of a subscription: a renewal, a first purchase, a resubscription, a
        /// recovery from billing retry, or an upgrade (a charge while subscribed takes effect now).
        mutating func subscriptionCharged(_ t: StoreCore.Transaction, accountID: String) {
            let prior = t.subscriptionGroupID.flatMap { before.subscription(accountID: accountID, groupID: $0) }
            let original = t.originalTransactionID
            let inRetry = prior.map { $0.lifecycle.billingRetryStart != nil && !$0.lifecycle.isExpired } ?? false
            if RenewalPayment.isRenewal(t) {
                let recovering = inRetry && recovered.insert(original).inserted
                notify(.didRenew, recovering ? .billingRecovery : nil, transaction: t, accountID: accountID)
                return
            }
            let offer = t.offerType == .promotional || t.offerType == .code
            guard let prior else {
                notify(offer ? .offerRedeemed : .subscribed, .initialBuy, transaction: t, accountID: accountID)
                return
            }
            let l = prior.lifecycle
            if l.isExpired || !(l.willAutoRenew || l.isActive(at: now)) {
                notify(offer ? .offerRedeemed : .subscribed, .resubscribe, transaction: t, accountID: accountID)
            } else if inRetry {
                recovered.insert(original)
                notify(.didRenew, .billingRecovery, transaction: t, accountID: accountID)
            } else {
                notify(offer ? .offerRedeemed : .didChangeRenewalPref, .upgrade, transaction: t, accountID: accountID)
            }
        }
    }
}
