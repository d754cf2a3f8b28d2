import Foundation

/// The journal's `notification` records added up, over the archive of settled ones: every
/// notification by UUID and by position (the order made), which are still due, the events
/// already notified, the test tokens, and price increases. Part of `JournalState`; compaction
/// moves the settled notifications (no attempt due: delivered or given up) to the archive
/// (`NotificationArchive`) and keeps the pending ones and the price increases in the snapshot,
/// so the snapshot does not grow with the notifications ever made.
struct NotificationOutbox: Sendable {
    /// The settled notifications compactions moved out of the journal, if any.
    private(set) var archive: NotificationArchive?
    /// Notifications read from the journal (the pending ones, and every one since the last
    /// compaction), by UUID.
    private var recent: [String: StoredNotification] = [:]
    /// The position of each of `recent`, and the UUID at each of their positions.
    private var positions: [String: UInt64] = [:]
    private var byPosition: [UInt64: String] = [:]
    /// The position a new notification takes: one past every position ever given.
    private(set) var nextPosition: UInt64 = 0
    /// Notifications with an attempt due (delivered and given-up ones leave).
    private var dueIDs: Set<String> = []
    /// What `recent` notified already (`StoredNotification.eventKey`); the archive has its own.
    private var eventKeys: Set<String> = []
    /// The UUID of each of `recent`'s test notifications, by its token.
    private var testTokens: [String: String] = [:]
    /// Price increases by original transaction ID (the last one of each).
    private(set) var priceIncreases: [String: PriceIncrease] = [:]

    init(archive: NotificationArchive? = nil) {
        self.archive = archive
    }

    mutating func apply(_ record: NotificationRecord) {
        if let n = record.notification {
            let uuid = n.notificationUUID
            let position = positions[uuid] ?? record.position ?? nextPosition
            if recent.updateValue(n, forKey: uuid) == nil {
                positions[uuid] = position
                byPosition[position] = uuid
            }
            nextPosition = max(nextPosition, position + 1)
            if n.nextAttemptDate == nil { dueIDs.remove(uuid) } else { dueIDs.insert(uuid) }
            if let key = n.eventKey { eventKeys.insert(key) }
            if let token = n.testNotificationToken { testTokens[token] = uuid }
        }
        if let p = record.priceIncrease { priceIncreases[p.originalTransactionID] = p }
    }

    /// Raises the next position to `position` (a header's, when the archive holds the last ones).
    mutating func raise(nextPosition position: UInt64) {
        nextPosition = max(nextPosition, position)
    }

    /// How many notifications were ever made (positions `0..<count`).
    var count: Int { Int(nextPosition) }

    /// The notification `uuid`, from the journal or the archive.
    func notification(uuid: String) -> StoredNotification? {
        recent[uuid] ?? archive?.notification(uuid: uuid)?.notification
    }

    /// The record that journals `n`, a new version of a notification the outbox holds (with
    /// its position, so it keeps its place wherever the earlier versions are).
    func record(_ n: StoredNotification) -> NotificationRecord {
        let uuid = n.notificationUUID
        return NotificationRecord(
            notification: n, position: positions[uuid] ?? archive?.notification(uuid: uuid)?.position)
    }

    /// The notification at `position` (`0..<count`).
    func notification(at position: Int) -> StoredNotification? {
        guard position >= 0 else { return nil }
        if let uuid = byPosition[UInt64(position)] { return recent[uuid] }
        return archive?.notification(at: UInt64(position))
    }

    /// The test notification a token names.
    func testNotification(token: String) -> StoredNotification? {
        if let uuid = testTokens[token] { return recent[uuid] }
        return archive?.notification(token: token)
    }

    /// Whether a notification was made for the event `key` already.
    func hasNotified(eventKey key: String) -> Bool {
        eventKeys.contains(key) || archive?.hasNotified(eventKey: key) == true
    }

    /// Every notification, oldest first. Reads the whole archive.
    var ordered: [StoredNotification] {
        var all: [UInt64: StoredNotification] = [:]
        for item in archive?.items() ?? [] where byPosition[item.position] == nil {
            all[item.position] = item.notification
        }
        for (uuid, position) in positions { all[position] = recent[uuid] }
        return all.keys.sorted().compactMap { all[$0] }
    }

    /// The notifications with an attempt due, in the order they were made.
    var due: [StoredNotification] {
        dueIDs.sorted { (positions[$0] ?? 0) < (positions[$1] ?? 0) }.compactMap { recent[$0] }
    }

    /// The notifications a compaction moves to the archive: `recent`'s settled ones, by position.
    var settled: [ArchivedNotification] {
        recentOrdered.filter { $0.notification.nextAttemptDate == nil }
    }

    /// The records that rebuild what stays in the journal: the pending notifications (with
    /// their positions) and the price increases.
    var snapshot: [NotificationRecord] {
        recentOrdered.filter { $0.notification.nextAttemptDate != nil }.map {
            NotificationRecord(notification: $0.notification, position: $0.position)
        }
            + priceIncreases.values.sorted { $0.originalTransactionID < $1.originalTransactionID }
            .map(NotificationRecord.init(priceIncrease:))
    }

    private var recentOrdered: [ArchivedNotification] {
        positions.sorted { $0.value < $1.value }.compactMap { uuid, position in
            recent[uuid].map { ArchivedNotification(position: position, notification: $0) }
        }
    }
}
