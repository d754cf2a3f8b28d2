import Foundation

/// The journal's `notification` records added up: every notification by UUID in the order
/// made, which are still due, the events already notified, and price increases. Part of
/// `JournalState`, so compaction keeps them.
struct NotificationOutbox: Sendable {
    private(set) var notifications: [String: StoredNotification] = [:]
    /// UUIDs in the order the notifications were made.
    private(set) var order: [String] = []
    /// Each UUID's place in `order`.
    private var positions: [String: Int] = [:]
    /// Notifications with an attempt due (delivered and given-up ones leave).
    private(set) var dueIDs: Set<String> = []
    /// What has been notified already (`StoredNotification.eventKey`).
    private(set) var eventKeys: Set<String> = []
    /// The UUID of each test notification, by its token.
    private(set) var testTokens: [String: String] = [:]
    /// Price increases by original transaction ID (the last one of each).
    private(set) var priceIncreases: [String: PriceIncrease] = [:]

    mutating func apply(_ record: NotificationRecord) {
        if let n = record.notification {
            if notifications.updateValue(n, forKey: n.notificationUUID) == nil {
                positions[n.notificationUUID] = order.count
                order.append(n.notificationUUID)
            }
            if n.nextAttemptDate == nil { dueIDs.remove(n.notificationUUID) } else { dueIDs.insert(n.notificationUUID) }
            if let key = n.eventKey { eventKeys.insert(key) }
            if let token = n.testNotificationToken { testTokens[token] = n.notificationUUID }
        }
        if let p = record.priceIncrease { priceIncreases[p.originalTransactionID] = p }
    }

    /// Every notification, oldest first.
    var ordered: [StoredNotification] { order.compactMap { notifications[$0] } }

    /// The notifications with an attempt due, in the order they were made.
    var due: [StoredNotification] {
        dueIDs.sorted { (positions[$0] ?? 0) < (positions[$1] ?? 0) }.compactMap { notifications[$0] }
    }

    /// Where a notification stands in the order they were made.
    func position(of uuid: String) -> Int? { positions[uuid] }

    /// The records that rebuild this state.
    var snapshot: [NotificationRecord] {
        ordered.map(NotificationRecord.init(notification:))
            + priceIncreases.values.sorted { $0.originalTransactionID < $1.originalTransactionID }
            .map(NotificationRecord.init(priceIncrease:))
    }
}
