/// What one archive beside the journal keeps and how its index finds it: the queue's finished
/// entries (`HistoryLayout`, `history.dat`) and the settled notifications (`OutboxLayout`,
/// `outbox.dat`). The frames, their checks, the index's runs and their making again are
/// `FrameArchive`'s.
protocol ArchiveLayout {
    associatedtype Item: Codable & Sendable
    /// The data file's first 16 bytes: its name and version.
    static var magic: [UInt8] { get }
    /// The item's key in the index's `entries` table (its latest frame wins); `nil` for an item
    /// that cannot be archived.
    static func key(of item: Item) -> UInt64?
    /// What the `entries` table keeps beside the frame's length (bits 32 to 62 of `info`).
    static func flags(of item: Item) -> UInt64
    /// The index's other three tables for one run: what `moved` (in file order, each frame
    /// with the version of its item it replaces, from this run or an older one) adds, each
    /// sorted by key (pairs by key, then value).
    static func tables(adding moved: [ArchiveFrame<Item>]) -> [[HistoryIndex.Entry]]
    /// How the entries of each of those three tables in several runs add up.
    static var tableKinds: [IndexTableKind] { get }
}

/// How a table's entries in several runs of an index add up (`LayeredIndex`).
enum IndexTableKind {
    /// A set of (key, value) pairs: a lookup's answer is every run's pairs.
    case pairs
    /// One entry a key whose value (a two's complement count) and info add up over the runs.
    case sums
}

/// A frame just written or read, for the index: its item, the version it replaces, and its
/// `entries` table entry.
struct ArchiveFrame<Item> {
    let item: Item
    let previous: Item?
    let entry: HistoryIndex.Entry
}

/// One run of an archive's index as the journal's header names it: the compaction that wrote
/// it (its file is `history-GENERATION.idx` or `outbox-GENERATION.idx`) and the first byte of
/// the data file it covers (it ends where the next run starts, the last at the archive's end).
struct ArchiveRun: Codable, Hashable, Sendable {
    var generation: UInt64
    var start: UInt64
}
