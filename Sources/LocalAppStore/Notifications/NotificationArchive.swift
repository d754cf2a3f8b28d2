import Foundation

/// The settled notifications (delivered, or given up) a compaction moved out of the journal
/// (`outbox.dat`, `SFJOUTB\0` version 1, one frame per version, append-only), found through
/// the runs of its index the journal names (`outbox-GENERATION.idx`): a `FrameArchive` of
/// `ArchivedNotification`s keyed by position.
typealias NotificationArchive = FrameArchive<OutboxLayout>

/// A notification in the archive, with its position: where it stands in the order the store
/// made its notifications (0 for the first ever), which never changes.
struct ArchivedNotification: Codable, Hashable, Sendable {
    var position: UInt64
    var notification: StoredNotification
}

/// The outbox archive's frames and tables: `entries` by position, `uuids`
/// (`HistoryIndex.hash(notificationUUID)` → position), `tokens` (hash of a test notification's
/// token → position) and `events` (hash of `StoredNotification.eventKey` → position). A hash
/// that collides only makes a lookup read one more frame, which it then rejects.
enum OutboxLayout: ArchiveLayout {
    static let magic: [UInt8] = Array("SFJOUTB\0".utf8) + [1, 0, 0, 0, 0, 0, 0, 0]

    static func key(of item: ArchivedNotification) -> UInt64? { item.position }

    static func flags(of item: ArchivedNotification) -> UInt64 { 0 }

    static let tableKinds: [IndexTableKind] = [.pairs, .pairs, .pairs]

    static func tables(adding moved: [ArchiveFrame<ArchivedNotification>]) -> [[HistoryIndex.Entry]] {
        var added: [[HistoryIndex.Entry]] = [[], [], []]
        for frame in moved {
            let n = frame.item.notification
            let position = frame.item.position
            added[0].append(HistoryIndex.Entry(key: HistoryIndex.hash(n.notificationUUID), value: position))
            if let token = n.testNotificationToken {
                added[1].append(HistoryIndex.Entry(key: HistoryIndex.hash(token), value: position))
            }
            if let key = n.eventKey {
                added[2].append(HistoryIndex.Entry(key: HistoryIndex.hash(key), value: position))
            }
        }
        return added.map { HistoryIndex.merging([], $0) }
    }
}

extension HistoryIndex.Table {
    /// The outbox archive's UUID hash → position pairs.
    static let uuids = Self(rawValue: 1)
    /// The outbox archive's test-token hash → position pairs.
    static let tokens = Self(rawValue: 2)
    /// The outbox archive's event-key hash → position pairs.
    static let events = Self(rawValue: 3)
}

extension FrameArchive where Layout == OutboxLayout {
    /// The archived notification at `position`.
    func notification(at position: UInt64) -> StoredNotification? { item(key: position)?.notification }

    /// The archived notification `uuid`, with its position.
    func notification(uuid: String) -> ArchivedNotification? {
        items(.uuids, key: HistoryIndex.hash(uuid)).first { $0.notification.notificationUUID == uuid }
    }

    /// The archived test notification that answered with `token`.
    func notification(token: String) -> StoredNotification? {
        items(.tokens, key: HistoryIndex.hash(token)).first { $0.notification.testNotificationToken == token }?
            .notification
    }

    /// Whether an archived notification was made for the event `key`.
    func hasNotified(eventKey key: String) -> Bool {
        items(.events, key: HistoryIndex.hash(key)).contains { $0.notification.eventKey == key }
    }
}
