import StoreCore

/// What the journal's records add up to: every transaction, the settings and the ID counter.
struct JournalState: Sendable {
    /// The first transaction ID a new store hands out (the shape of App Store IDs).
    static let firstTransactionID: UInt64 = 2_000_000_000_000_001

    private(set) var entries: [String: QueueEntry] = [:]
    /// Transaction IDs in the order they first appeared.
    private(set) var order: [String] = []
    var settings: LocalStoreSettings
    /// The next ID to hand out: above every ID ever written, so none is reused.
    private(set) var nextTransactionID: UInt64 = JournalState.firstTransactionID

    init(settings: LocalStoreSettings) {
        self.settings = settings
    }

    /// Applies one record; returns the entry it changed, if any.
    mutating func apply(_ record: JournalRecord) -> QueueEntry? {
        switch record.kind {
        case JournalRecord.header:
            if let next = record.nextTransactionID { nextTransactionID = max(nextTransactionID, next) }
            return nil
        case JournalRecord.settings:
            if let settings = record.settings { self.settings = settings }
            return nil
        case JournalRecord.entry:
            guard let entry = record.entry else { return nil }
            return put(entry)
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
        return previous == entry ? nil : entry
    }

    /// Hands out the next transaction ID (callers journal it before anyone sees it).
    mutating func allocateTransactionID() -> String {
        let id = nextTransactionID
        nextTransactionID += 1
        return String(id)
    }

    /// Every entry, oldest first.
    var orderedEntries: [QueueEntry] { order.compactMap { entries[$0] } }

    /// The records that rebuild this state: what compaction writes.
    var snapshotRecords: [JournalRecord] {
        [JournalRecord.makeHeader(nextTransactionID: nextTransactionID), JournalRecord.make(settings)]
            + orderedEntries.map(JournalRecord.make)
    }
}
