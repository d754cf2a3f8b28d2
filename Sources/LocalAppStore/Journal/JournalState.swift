import StoreCore

/// What the journal's records add up to: every transaction, the settings and the ID counter.
struct JournalState: Sendable {
    /// The first transaction ID a new store hands out (the shape of App Store IDs).
    static let firstTransactionID: UInt64 = 2_000_000_000_000_001

    private(set) var entries: [String: QueueEntry] = [:]
    /// Transaction IDs in the order they first appeared.
    private(set) var order: [String] = []
    var settings: LocalStoreSettings
    /// What the App Store Server API recorded.
    private(set) var server = ServerRecords()
    /// App Store Server Notifications (the outbox), refund requests and price increases.
    private(set) var notifications = NotificationOutbox()
    /// The next ID to hand out: above every ID ever written, so none is reused.
    private(set) var nextTransactionID: UInt64 = JournalState.firstTransactionID

    // Indexes, so that one purchase costs the same whatever the history's length.
    /// The transaction each payment made, by `Payment.requestID` (restores excluded).
    private var byRequestID: [String: String] = [:]
    /// Entries not finished yet.
    private var unfinishedIDs: Set<String> = []
    /// The charged, unrevoked purchase of each non-consumable, by account and product.
    private var ownedNonConsumables: [OwnedKey: String] = [:]

    /// Subscriptions by original transaction ID, and the order they began in.
    private(set) var subscriptions: [String: StoredSubscription] = [:]
    private var subscriptionOrder: [String] = []
    /// Each account's subscription in each group (one per group: a new purchase continues it).
    private var subscriptionByGroup: [GroupKey: String] = [:]

    private struct GroupKey: Hashable, Sendable {
        let accountID: String
        let groupID: String
    }

    private struct OwnedKey: Hashable, Sendable {
        let accountID: String
        let productID: String
    }

    init(settings: LocalStoreSettings) {
        self.settings = settings
    }

    /// Applies one record; returns the entry it changed, if any.
    mutating func apply(_ record: JournalRecord) -> QueueEntry? {
        switch record.kind {
        case .header:
            if let next = record.nextTransactionID { nextTransactionID = max(nextTransactionID, next) }
            return nil
        case .settings:
            if let settings = record.settings { self.settings = settings }
            return nil
        case .entry:
            guard let entry = record.entry else { return nil }
            return put(entry)
        case .subscription:
            if let subscription = record.subscription { put(subscription) }
            return nil
        case .server:
            if let server = record.server { self.server.apply(server) }
            return nil
        case .notification:
            if let notification = record.notification { notifications.apply(notification) }
            return nil
        default:
            return nil
        }
    }

    /// Stores `entry`; returns it when it differs from what was there.
    @discardableResult
    mutating func put(_ entry: QueueEntry) -> QueueEntry? {
        if let number = UInt64(entry.id), number >= nextTransactionID, number < UInt64.max {
            nextTransactionID = number + 1
        }
        let previous = entries.updateValue(entry, forKey: entry.id)
        if previous == nil { order.append(entry.id) }
        index(entry)
        return previous == entry ? nil : entry
    }

    private mutating func index(_ entry: QueueEntry) {
        let transaction = entry.transaction
        if transaction.state != .restored, byRequestID[transaction.payment.requestID] == nil {
            byRequestID[transaction.payment.requestID] = entry.id
        }
        if entry.finished {
            unfinishedIDs.remove(entry.id)
        } else {
            unfinishedIDs.insert(entry.id)
        }
        if transaction.productType == .nonConsumable {
            let key = OwnedKey(accountID: entry.accountID, productID: transaction.productID)
            if entry.charged && transaction.revocationDate == nil {
                if ownedNonConsumables[key] == nil { ownedNonConsumables[key] = entry.id }
            } else if ownedNonConsumables[key] == entry.id {
                ownedNonConsumables[key] = nil
            }
        }
    }

    /// The transaction a payment made, by its `requestID` (not counting restores).
    func entry(requestID: String) -> QueueEntry? {
        byRequestID[requestID].flatMap { entries[$0] }
    }

    /// Unfinished entries, oldest (lowest ID) first.
    var unfinishedEntries: [QueueEntry] {
        unfinishedIDs.compactMap { entries[$0] }.sorted { (UInt64($0.id) ?? 0) < (UInt64($1.id) ?? 0) }
    }

    /// The account's charged, unrevoked purchase of a non-consumable, if it owns one.
    func ownedPurchase(accountID: String, productID: String) -> QueueEntry? {
        ownedNonConsumables[OwnedKey(accountID: accountID, productID: productID)].flatMap { entries[$0] }
    }

    /// Hands out the next transaction ID (callers journal it before anyone sees it).
    mutating func allocateTransactionID() -> String {
        let id = nextTransactionID
        nextTransactionID += 1
        return String(id)
    }

    /// Stores a subscription's lifecycle (the last version wins).
    mutating func put(_ subscription: StoredSubscription) {
        let key = subscription.lifecycle.originalTransactionID
        if subscriptions.updateValue(subscription, forKey: key) == nil {
            subscriptionOrder.append(key)
            subscriptionByGroup[GroupKey(accountID: subscription.accountID, groupID: subscription.lifecycle.groupID)] = key
        }
    }

    /// The account's subscription in a group (active or not), if it ever subscribed there.
    func subscription(accountID: String, groupID: String) -> StoredSubscription? {
        subscriptionByGroup[GroupKey(accountID: accountID, groupID: groupID)].flatMap { subscriptions[$0] }
    }

    /// The account's subscriptions, oldest first.
    func subscriptions(accountID: String) -> [StoredSubscription] {
        subscriptionOrder.compactMap { subscriptions[$0] }.filter { $0.accountID == accountID }
    }

    /// Every entry, oldest first.
    var orderedEntries: [QueueEntry] { order.compactMap { entries[$0] } }

    /// The account's transactions that grant what `entry` grants: for a subscription, those of
    /// its period (a downgrade's answer and restored copies share its web order line item ID);
    /// otherwise the purchase and its restored copies (same original transaction ID). A refund
    /// or an early end applies to all of them.
    func sameGrant(as entry: QueueEntry) -> [QueueEntry] {
        let t = entry.transaction
        return entries.values.filter {
            $0.accountID == entry.accountID && $0.transaction.originalTransactionID == t.originalTransactionID
                && ($0.transaction.state == .purchased || $0.transaction.state == .restored)
                && (t.webOrderLineItemID == nil || $0.transaction.webOrderLineItemID == t.webOrderLineItemID)
        }
    }

    /// The records that rebuild this state: what compaction writes.
    var snapshotRecords: [JournalRecord] {
        [JournalRecord.makeHeader(nextTransactionID: nextTransactionID), JournalRecord.make(settings)]
            + orderedEntries.map(JournalRecord.make)
            + subscriptionOrder.compactMap { subscriptions[$0] }.map(JournalRecord.make)
            + server.snapshot.map(JournalRecord.make)
            + notifications.snapshot.map(JournalRecord.make)
    }
}
