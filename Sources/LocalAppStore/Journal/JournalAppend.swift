/// One change appended to the journal under the lock and not yet committed (synced when asked,
/// then applied: `StoreJournal.commit`).
struct JournalAppend {
    /// The change's records, in the order written.
    let records: [JournalRecord]
    /// The journal's length before the append.
    let start: Int64
    /// The journal's length after it.
    let end: Int64
}
