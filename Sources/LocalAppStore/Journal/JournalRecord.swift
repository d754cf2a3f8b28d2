import StoreCore

/// One line of the store's journal (JSON, one object a line).
///
/// `kind` is stored raw: a kind this version does not know is skipped, so a newer version's
/// records do not stop an older one from reading the rest.
struct JournalRecord: Codable {
    /// What a record holds, stored raw (`"entry"`), so kinds a newer version adds survive.
    struct Kind: RawRepresentable, Codable, Hashable, Sendable {
        let rawValue: String  // `init(rawValue:)` is the memberwise one.

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
        /// Which purchase of each non-consumable an account owns, at a compaction (version 3).
        static let owned = Kind(rawValue: "owned")
        /// What the app's StoreKit requests recorded (offer nonces, offer codes, refund
        /// requests); version 4.
        static let storeKit = Kind(rawValue: "storekit")
        /// App Store Server Notifications (the outbox) and price increases (`NotificationRecord`);
        /// version 4.
        static let notification = Kind(rawValue: "notification")
        /// Family Sharing: accounts, the family, sharing choices and shares (`FamilyRecord`);
        /// version 7.
        static let family = Kind(rawValue: "family")
    }

    /// The format name written in headers.
    static let formatName = "storefront-local-store-journal"
    /// The format version this code writes. It reads every earlier one: 1 (JSON lines only),
    /// 2 (adds `server` records), 3 (a compacted history beside the journal, `history.dat`,
    /// named by the header's generation, and `owned` records) and 4 (adds `storekit` records:
    /// offer nonces, offer codes, refund requests; and `notification` records: the outbox and
    /// price increases). A build that reads only up to 2 refuses a version 3 journal rather
    /// than losing the history it cannot see, and one that reads up to 3 a version 4 journal
    /// rather than compacting its `storekit` and `notification` records away. Version 5 moves
    /// settled notifications to an archive beside the journal (`outbox.dat`, named by the
    /// header's `outboxGeneration` and `outboxEnd`), which a build that reads up to 4 would
    /// not see (it would notify their events again): it refuses the journal instead. Version 6
    /// names each archive's index as runs (`historyRuns`, `outboxRuns`: `ArchiveRun`), each
    /// written once by the compaction that moved its frames, instead of one index that each
    /// compaction wrote anew whole; a build that reads up to 5 would read only the newest
    /// run, so it refuses the journal. Docs/formats/journal.md describes the format. Version 7
    /// adds `family` records, which a compaction by a build that reads up to 6 would drop.
    static let currentVersion = 7

    /// The longest string a line may hold, in bytes as written: far above any the store writes
    /// (a signed transaction is a few kilobytes), and below what the tape parser can address.
    static let maximumStringBytes = 1 << 30

    var kind: Kind
    var format: String?
    var version: Int?
    var nextTransactionID: UInt64?
    /// Version 3 headers: the compaction that wrote this journal (0: none yet), the bytes of
    /// `history.dat` it uses, and how many lines (the header's included) it began with.
    var generation: UInt64?
    var historyEnd: UInt64?
    var snapshotLines: Int?
    /// Version 5 headers: the compaction that last moved notifications to `outbox.dat` (its
    /// index is `outbox-GENERATION.idx`), the bytes of `outbox.dat` the journal uses, and the
    /// position the next notification takes. Absent: no archive yet. Version 6 headers keep
    /// the end and the position, and name the index's runs instead of a generation.
    var outboxGeneration: UInt64?
    var outboxEnd: UInt64?
    var nextNotificationPosition: UInt64?
    /// Version 6 headers: the runs of `history.dat`'s index (with a generation above 0) and of
    /// `outbox.dat`'s (present when it exists), oldest first.
    var historyRuns: [ArchiveRun]?
    var outboxRuns: [ArchiveRun]?
    /// An `owned` record: account and product (joined by U+001F) → the owning transaction.
    var owned: [String: String]?
    var entry: QueueEntry?
    var settings: LocalStoreSettings?
    var subscription: StoredSubscription?
    /// Set on every record of a change but its last: a change made of several records (a
    /// renewal's transaction and its subscription) applies only once its last record is read,
    /// so a write torn between its lines applies none of it. Absent (`nil`) on the last record
    /// and on every single-record change, so older journals read as before.
    var more: Bool?
    var server: ServerRecord?
    var storeKit: StoreKitRecord?
    var notification: NotificationRecord?
    var family: FamilyRecord?

    static func makeHeader(
        nextTransactionID: UInt64, generation: UInt64 = 0, historyEnd: UInt64 = 0, historyRuns: [ArchiveRun]? = nil,
        snapshotLines: Int, outbox: (runs: [ArchiveRun], end: UInt64)? = nil, nextNotificationPosition: UInt64? = nil
    ) -> JournalRecord {
        JournalRecord(
            kind: .header, format: formatName, version: currentVersion, nextTransactionID: nextTransactionID,
            generation: generation, historyEnd: historyEnd, snapshotLines: snapshotLines,
            outboxEnd: outbox?.end, nextNotificationPosition: nextNotificationPosition, historyRuns: historyRuns,
            outboxRuns: outbox?.runs)
    }

    /// A header's runs of `history.dat`'s index: those it names (version 6), else the one
    /// index of the whole archive its generation wrote (versions 3 to 5); nil without a history.
    var historyIndexRuns: [ArchiveRun]? {
        guard let generation, generation > 0 else { return nil }
        return historyRuns
            ?? [ArchiveRun(generation: generation, start: UInt64(JournalHistory.headerLength))]
    }

    /// A header's runs of `outbox.dat`'s index: those it names (version 6), else the one index
    /// its `outboxGeneration` wrote (version 5); nil without an outbox archive.
    var outboxIndexRuns: [ArchiveRun]? {
        outboxRuns
            ?? outboxGeneration.map { [ArchiveRun(generation: $0, start: UInt64(NotificationArchive.headerLength))] }
    }

    static func makeOwned(_ owned: [String: String]) -> JournalRecord {
        JournalRecord(kind: .owned, owned: owned)
    }

    /// The record that carries `payload`, in the member its type names.
    static func make<Payload: JournalPayload>(_ payload: Payload) -> JournalRecord {
        var record = JournalRecord(kind: Payload.journalSlot.kind)
        record[keyPath: Payload.journalSlot.member] = payload
        return record
    }
}

/// A value a journal record carries whole, in the one member its kind of record has for it.
protocol JournalPayload {
    /// The kind of the records that carry it, and their member that holds it.
    static var journalSlot: JournalSlot<Self> { get }
}

/// Where a payload stands in a record: the record's kind and its member.
struct JournalSlot<Payload> {
    let kind: JournalRecord.Kind
    let member: WritableKeyPath<JournalRecord, Payload?>
}

extension QueueEntry: JournalPayload {
    static var journalSlot: JournalSlot<Self> { .init(kind: .entry, member: \.entry) }
}
extension LocalStoreSettings: JournalPayload {
    static var journalSlot: JournalSlot<Self> { .init(kind: .settings, member: \.settings) }
}
extension StoredSubscription: JournalPayload {
    static var journalSlot: JournalSlot<Self> { .init(kind: .subscription, member: \.subscription) }
}
extension ServerRecord: JournalPayload {
    static var journalSlot: JournalSlot<Self> { .init(kind: .server, member: \.server) }
}
extension StoreKitRecord: JournalPayload {
    static var journalSlot: JournalSlot<Self> { .init(kind: .storeKit, member: \.storeKit) }
}
extension NotificationRecord: JournalPayload {
    static var journalSlot: JournalSlot<Self> { .init(kind: .notification, member: \.notification) }
}
extension FamilyRecord: JournalPayload {
    static var journalSlot: JournalSlot<Self> { .init(kind: .family, member: \.family) }
}
