import StoreCore

/// What the journal's records add up to: every transaction, the settings and the ID counter.
///
/// Finished transactions that a compaction moved out of the journal live in `history`
/// (`JournalHistory`, read when asked for); everything since, and every unfinished
/// transaction, is in `recent`. Lookups look in `recent` first.
struct JournalState: Sendable {
    /// The first transaction ID a new store hands out (the shape of App Store IDs).
    static let firstTransactionID: UInt64 = 2_000_000_000_000_001

    /// The compacted history, if any.
    private(set) var history: JournalHistory?
    /// Entries written since the history (and every unfinished one), by transaction ID.
    private(set) var recent: [String: QueueEntry] = [:]
    /// `recent`'s IDs in the order they first appeared.
    private var recentOrder: [String] = []
    /// The IDs of `recent` that the history does not hold, in the order they first appeared.
    private(set) var freshOrder: [String] = []
    var settings: LocalStoreSettings
    /// What the App Store Server API recorded.
    private(set) var server = ServerRecords()
    /// What the app's StoreKit requests recorded (offer nonces, offer codes, refund requests).
    private(set) var storeKit = StoreKitRecords()
    /// App Store Server Notifications (the outbox) and price increases.
    private(set) var notifications = NotificationOutbox()
    /// Family Sharing: accounts, the family, sharing choices and shares.
    private(set) var family = FamilyState()
    /// The next ID to hand out: above every ID ever written, so none is reused.
    private(set) var nextTransactionID: UInt64 = JournalState.firstTransactionID

    // Indexes, so that one purchase costs the same whatever the history's length.
    /// The transaction each payment made since the history, by `Payment.requestID` (restores
    /// excluded); the history has its own.
    private var byRequestID: [String: String] = [:]
    /// Entries not finished yet (always in `recent`: compaction keeps them in the journal).
    private var unfinishedIDs: Set<String> = []
    /// The charged, unrevoked purchase of each non-consumable, by account and product.
    private(set) var ownedNonConsumables: [OwnedKey: String] = [:]

    /// Subscriptions by original transaction ID, and the order they began in.
    private(set) var subscriptions: [String: StoredSubscription] = [:]
    private var subscriptionOrder: [String] = []
    /// Each account's subscription in each group (one per group: a new purchase continues it).
    private var subscriptionByGroup: [GroupKey: String] = [:]

    private struct GroupKey: Hashable, Sendable {
        let accountID: String
        let groupID: String
    }

    /// An account and a product, for the non-consumables it owns.
    struct OwnedKey: Hashable, Sendable {
        let accountID: String
        let productID: String

        /// As the journal's `owned` record keeps it.
        var text: String { accountID + "\u{1F}" + productID }

        init(accountID: String, productID: String) {
            self.accountID = accountID
            self.productID = productID
        }

        init?(text: String) {
            let parts = text.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            self.init(accountID: String(parts[0]), productID: String(parts[1]))
        }
    }

    init(settings: LocalStoreSettings, history: JournalHistory? = nil, outbox: NotificationArchive? = nil) {
        self.settings = settings
        self.history = history
        self.notifications = NotificationOutbox(archive: outbox)
    }

    /// Every transaction, recent or compacted, by ID: `state.entries[id]`.
    var entries: Entries { Entries(recent: recent, history: history) }

    /// A read-only view of every entry by transaction ID.
    struct Entries {
        let recent: [String: QueueEntry]
        let history: JournalHistory?

        subscript(id: String) -> QueueEntry? { recent[id] ?? history?.entry(id: id) }
    }

    /// Applies one record; returns the entry it changed, if any.
    mutating func apply(_ record: JournalRecord) -> QueueEntry? {
        switch record.kind {
        case .header:
            if let next = record.nextTransactionID { nextTransactionID = max(nextTransactionID, next) }
            if let next = record.nextNotificationPosition { notifications.raise(nextPosition: next) }
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
        case .owned:
            for (text, id) in record.owned ?? [:] {
                if let key = OwnedKey(text: text) { ownedNonConsumables[key] = id }
            }
            return nil
        case .server:
            if let server = record.server { self.server.apply(server) }
            return nil
        case .storeKit:
            if let storeKit = record.storeKit { self.storeKit.apply(storeKit) }
            return nil
        case .notification:
            if let notification = record.notification { notifications.apply(notification) }
            return nil
        case .family:
            if let family = record.family { self.family.apply(family) }
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
        var previous = recent.updateValue(entry, forKey: entry.id)
        if previous == nil {
            recentOrder.append(entry.id)
            previous = history?.entry(id: entry.id)
            if previous == nil { freshOrder.append(entry.id) }
        }
        index(entry)
        return previous == entry ? nil : entry
    }

    private mutating func index(_ entry: QueueEntry) {
        let transaction = entry.transaction
        if transaction.state != .restored, byRequestID[transaction.payment.requestID] == nil,
            history?.entry(requestID: transaction.payment.requestID) == nil
        {
            byRequestID[transaction.payment.requestID] = entry.id
        }
        if entry.finished {
            unfinishedIDs.remove(entry.id)
        } else {
            unfinishedIDs.insert(entry.id)
        }
        noteOwnership(entry)
    }

    /// Keeps `ownedNonConsumables` up to date with `entry`.
    private mutating func noteOwnership(_ entry: QueueEntry) {
        let transaction = entry.transaction
        guard transaction.productType == .nonConsumable else { return }
        let key = OwnedKey(accountID: entry.accountID, productID: transaction.productID)
        if entry.charged && transaction.revocationDate == nil {
            if ownedNonConsumables[key] == nil { ownedNonConsumables[key] = entry.id }
        } else if ownedNonConsumables[key] == entry.id {
            ownedNonConsumables[key] = nil
        }
    }

    /// Takes in what the snapshot keeps of a finished entry that goes straight to the history
    /// (`StoreJournal.importIntoHistory`): its ID for the counter, and the non-consumable it owns.
    mutating func noteArchived(_ entry: QueueEntry) {
        if let number = UInt64(entry.id), number >= nextTransactionID, number < UInt64.max {
            nextTransactionID = number + 1
        }
        noteOwnership(entry)
    }

    /// The transaction a payment made, by its `requestID` (not counting restores).
    func entry(requestID: String) -> QueueEntry? {
        if let id = byRequestID[requestID] { return entries[id] }
        return history?.entry(requestID: requestID).flatMap { entries[$0.id] }
    }

    /// Unfinished entries, oldest (lowest ID) first.
    var unfinishedEntries: [QueueEntry] {
        unfinishedIDs.compactMap { recent[$0] }.sorted { Self.precedes($0.id, $1.id) }
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
            subscriptionByGroup[GroupKey(accountID: subscription.accountID, groupID: subscription.lifecycle.groupID)] =
                key
        }
    }

    /// The account's subscription in a group (active or not), if it ever subscribed there.
    func subscription(accountID: String, groupID: String) -> StoredSubscription? {
        subscriptionByGroup[GroupKey(accountID: accountID, groupID: groupID)].flatMap { subscriptions[$0] }
    }

    /// The account's subscriptions, oldest first.
    func subscriptions(accountID: String) -> [StoredSubscription] {
        orderedSubscriptions.filter { $0.accountID == accountID }
    }

    /// Every subscription, in the order they began.
    var orderedSubscriptions: [StoredSubscription] { subscriptionOrder.compactMap { subscriptions[$0] } }

    /// Every entry, oldest (lowest ID) first. Reads the whole history.
    var orderedEntries: [QueueEntry] { entries(where: { _ in true }) }

    /// The entries whose history flags pass `filter` (every recent entry is checked by its
    /// own flags), oldest first: a scan that decodes only what it keeps.
    func entries(where filter: (HistoryFlags) -> Bool) -> [QueueEntry] {
        let compacted = (history?.entries(where: filter) ?? []).filter { recent[$0.id] == nil }
        let fresh = recentOrder.compactMap { recent[$0] }.filter { filter(HistoryFlags($0)) }
        return (compacted + fresh).sorted { Self.precedes($0.id, $1.id) }
    }

    /// The transactions of a purchase and its renewals and restored copies (one original
    /// transaction ID), oldest first: a scan of the entries of what a sync restores (only
    /// those products have renewals or restored copies).
    func entries(originalTransactionID: String) -> [QueueEntry] {
        entries(where: { $0.restorable(in: .sync) }).filter {
            $0.transaction.originalTransactionID == originalTransactionID
        }
    }

    /// The digest of the account's finished purchased and restored transactions
    /// (`JournalHistory.countsAsFinished`): the history's, corrected by the recent entries
    /// (each replaces its compacted version, if any), so it costs what the journal holds.
    func finishedDigest(accountID: String) -> TransactionDigest {
        var digest = history?.finishedDigest(accountID: accountID) ?? TransactionDigest()
        for entry in recentEntries {
            if let compacted = history?.entry(id: entry.id), compacted.accountID == accountID,
                JournalHistory.countsAsFinished(compacted)
            {
                digest.remove(compacted.id)
            }
            if entry.accountID == accountID, JournalHistory.countsAsFinished(entry) { digest.insert(entry.id) }
        }
        return digest
    }

    /// Every transaction ID by position, in the order they were handed out (`JournalOrder`).
    var order: JournalOrder { JournalOrder(history: history, fresh: freshOrder) }

    /// The entries written since the history, in the order they first appeared.
    var recentEntries: [QueueEntry] { recentOrder.compactMap { recent[$0] } }

    /// The account's transactions that grant what `entry` grants: for a subscription, those of
    /// its period (a downgrade's answer and restored copies share its web order line item ID);
    /// otherwise the purchase and its restored copies (same original transaction ID). A refund
    /// or an early end applies to all of them.
    func sameGrant(as entry: QueueEntry) -> [QueueEntry] {
        let t = entry.transaction
        func grants(_ other: QueueEntry) -> Bool {
            other.accountID == entry.accountID && other.transaction.originalTransactionID == t.originalTransactionID
                && (other.transaction.state == .purchased || other.transaction.state == .restored)
                && (t.webOrderLineItemID == nil || other.transaction.webOrderLineItemID == t.webOrderLineItemID)
        }
        var found = recent.values.filter(grants)
        if let history {
            // The history finds the purchase's grant under its key (account, original, period).
            let compacted = history.entries(grantKey: Self.grantKey(accountID: entry.accountID, transaction: t))
            found += compacted.filter { recent[$0.id] == nil && grants($0) }
        }
        return found.sorted { Self.precedes($0.id, $1.id) }
    }

    /// The key under which the history's `grants` table finds an entry.
    static func grantKey(accountID: String, transaction: Transaction) -> UInt64 {
        HistoryIndex.hash(accountID, transaction.originalTransactionID, transaction.webOrderLineItemID ?? "")
    }

    /// Whether transaction ID `a` sorts before `b`: numerically (IDs increase), others after
    /// in text order.
    static func precedes(_ a: String, _ b: String) -> Bool {
        switch (UInt64(a), UInt64(b)) {
        case (let x?, let y?): x < y
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): a < b
        }
    }
}
