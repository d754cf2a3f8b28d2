import StoreCore

/// One line of the store's journal (JSON, one object a line).
///
/// `kind` is stored raw: a kind this version does not know is skipped, so a newer version's
/// records do not stop an older one from reading the rest.
struct JournalRecord: Codable {
    /// What a record holds, stored raw (`"entry"`), so kinds a newer version adds survive.
    struct Kind: RawRepresentable, Codable, Hashable, Sendable {
        let rawValue: String
        init(rawValue: String) { self.rawValue = rawValue }

        /// The journal's first line: its format, version and the next transaction ID.
        static let header = Kind(rawValue: "header")
        /// A transaction's whole bookkeeping after a change (the last one wins).
        static let entry = Kind(rawValue: "entry")
        /// The whole settings after a change (the last one wins).
        static let settings = Kind(rawValue: "settings")
        /// A subscription's whole lifecycle after a change (the last one wins).
        static let subscription = Kind(rawValue: "subscription")
        /// What the App Store Server API recorded (consumption, tokens, extensions); version 2.
        static let server = Kind(rawValue: "server")
        /// A notification, refund request or price increase (`NotificationRecord`).
        static let notification = Kind(rawValue: "notification")
    }

    /// The format name written in headers.
    static let formatName = "storefront-local-store-journal"
    /// The format version this code writes and reads. Version 2 adds `server` records; a
    /// version 1 journal reads unchanged, and a version 1 build refuses a version 2 journal
    /// rather than compacting its server records away.
    static let currentVersion = 2

    var kind: Kind
    var format: String?
    var version: Int?
    var nextTransactionID: UInt64?
    var entry: QueueEntry?
    var settings: LocalStoreSettings?
    var subscription: StoredSubscription?
    var server: ServerRecord?
    var notification: NotificationRecord?

    static func makeHeader(nextTransactionID: UInt64) -> JournalRecord {
        JournalRecord(kind: .header, format: formatName, version: currentVersion, nextTransactionID: nextTransactionID)
    }

    static func make(_ entry: QueueEntry) -> JournalRecord {
        JournalRecord(kind: .entry, entry: entry)
    }

    static func make(_ settings: LocalStoreSettings) -> JournalRecord {
        JournalRecord(kind: .settings, settings: settings)
    }

    static func make(_ server: ServerRecord) -> JournalRecord {
        JournalRecord(kind: .server, server: server)
    }

    static func make(_ notification: NotificationRecord) -> JournalRecord {
        JournalRecord(kind: .notification, notification: notification)
    }

    static func make(_ subscription: StoredSubscription) -> JournalRecord {
        JournalRecord(kind: .subscription, subscription: subscription)
    }
}
