internal import Crypto
import Foundation
internal import SystemIO

/// One run of the index of an archive beside the journal (`FrameArchive`, `LayeredIndex`:
/// `history-GENERATION.idx`, `outbox-GENERATION.idx`): what the frames of one byte range of the
/// data file add, as four sorted tables of 24-byte entries (key, value, info) in 4096-byte
/// pages, each checked by SHA-256 when read. The header (checked too) holds each page's first
/// key, so a lookup reads one page. A run is written once, by the compaction whose generation
/// names it, and never changed (Docs/formats/journal.md, "Index runs"). The history's tables
/// are below; the outbox's are `OutboxLayout`'s.
///
/// - `entries`: transaction ID → offset of its latest frame in the run's range (info: the
///   frame's length, the layout's flags, and `shadowsBit` when an older run has the key too);
/// - `requests`: `HistoryIndex.hash(requestID)` → transaction ID (restored copies left out);
/// - `grants`: `HistoryIndex.hash(account, original ID, web order line item ID)` → transaction ID;
/// - `finished`: `HistoryIndex.hash(account)` → how many of the account's transactions the
///   run's frames add to those purchased or restored, less those they take away (a two's
///   complement count; info: the same change of the sum of their `TransactionDigest` hashes).
///
/// Versions: 3 adds the run's first byte (`historyStart`) and each `entries` page's rank among
/// the keys no older run has; 2 (one index of the whole archive, so a run that starts at the
/// data file's header, whose keys no older run has) is read as such a run; 1 (no `finished`
/// table) is made again from the data file (derived data, like a damaged one).
final class HistoryIndex {
    /// One entry of a table.
    struct Entry: Hashable {
        var key: UInt64
        var value: UInt64
        var info: UInt64 = 0

        /// Whether an older run of the index has this `entries` key too (its frame is a newer
        /// version of an item archived before the run's range).
        var shadows: Bool { info & HistoryIndex.shadowsBit != 0 }
    }

    /// A table, by its place in the file; each archive names its own (`HistoryLayout`'s
    /// `requests`, `grants`, `finished`; `OutboxLayout`'s `uuids`, `tokens`, `events`).
    struct Table: Hashable, CustomStringConvertible {
        let rawValue: Int
        /// Every index has four tables.
        static let count = 4
        /// Key → the offset of its latest frame (info: the layout's flags and the frame's length).
        static let entries = Table(rawValue: 0)
        var description: String { "\(rawValue)" }
    }

    /// A page that fails its check, or a file that is not the run the journal names.
    struct Damaged: Error {
        let detail: String
        /// The run's file.
        var path: String = ""
    }

    static let magic: [UInt8] = Array("SFJIDX\0\u{1}".utf8)
    static let version: UInt16 = 3
    static let pageSize = 4096
    static let entrySize = 24
    static let entriesPerPage = 169
    /// The `entries` info bit that says an older run has the key too.
    static let shadowsBit: UInt64 = 1 << 63
    /// Magic, version, reserved, generation, start (version 3), end, four table shapes.
    static func fixedHeaderLength(version: UInt16) -> Int { 8 + 2 + 2 + 8 + (version >= 3 ? 8 : 0) + 8 + 4 * 8 }

    /// The compaction that wrote this run (its file's name).
    let generation: UInt64
    /// The bytes of the data file whose frames this run indexes: `historyStart..<historyEnd`.
    let historyStart: UInt64
    let historyEnd: UInt64
    let path: String

    private let fs: any FileSystem
    private let file: OpenFile
    private let tables: [Shape]
    /// Pages read and checked, by number; guarded by `lock` (snapshots read off the actor).
    private var pages: [Int: [Entry]] = [:]
    private let lock = NSLock()

    /// Where a table's pages are, and what the header says of them.
    private struct Shape {
        var pages: Int
        var count: Int
        var firstKeys: [UInt64]
        /// `entries` only: how many keys no older run has come before each page (one more
        /// element: all of them). Empty for the other tables.
        var ranks: [UInt64]
        var start: Int
    }

    private init(
        path: String, fs: any FileSystem, file: OpenFile, generation: UInt64, historyStart: UInt64,
        historyEnd: UInt64, tables: [Shape]
    ) {
        self.path = path
        self.fs = fs
        self.file = file
        self.generation = generation
        self.historyStart = historyStart
        self.historyEnd = historyEnd
        self.tables = tables
    }

    deinit { fs.close(file) }

    /// The entry count of `table`.
    func count(_ table: Table) -> Int { tables[table.rawValue].count }

    /// How many of the `entries` table's keys no older run has.
    var ownKeys: Int { Int(tables[Table.entries.rawValue].ranks.last ?? 0) }

    // MARK: - Opening

    /// Opens the run at `path`, checking that its header names `generation` and the bytes
    /// `start..<end` of the data file.
    /// - Throws: `Damaged` when it is not that run or its header fails its check;
    ///   `SystemCallError` when it cannot be read.
    static func open(
        _ path: String, generation: UInt64, start: UInt64, end: UInt64, fs: any FileSystem
    ) throws -> HistoryIndex {
        let file = try fs.open(path, [.read, .noFollow], mode: 0)
        do {
            return try read(path, file: file, generation: generation, start: start, end: end, fs: fs)
        } catch var damage as Damaged {
            fs.close(file)
            damage.path = path
            throw damage
        } catch {
            fs.close(file)
            throw error
        }
    }

    private static func read(
        _ path: String, file: OpenFile, generation: UInt64, start: UInt64, end: UInt64, fs: any FileSystem
    ) throws -> HistoryIndex {
        let prefix = try fs.read(file, count: 12, at: 0)
        guard prefix.count == 12, Array(prefix[0..<8]) == magic else { throw Damaged(detail: "not a history index") }
        var v = Reader(prefix, at: 8)
        let version = v.uint16()
        guard version == 2 || version == 3, v.uint16() == 0 else {
            throw Damaged(detail: "an index of another version")
        }
        let fixedLength = fixedHeaderLength(version: version)
        let fixed = try fs.read(file, count: fixedLength, at: 0)
        guard fixed.count == fixedLength else { throw Damaged(detail: "the header is cut short") }
        var r = Reader(fixed, at: 12)
        guard r.uint64() == generation else { throw Damaged(detail: "the index of another generation") }
        // A version 2 index covers the whole archive from its header on.
        let historyStart = version >= 3 ? r.uint64() : UInt64(16)
        let historyEnd = r.uint64()
        guard historyStart == start, historyEnd == end else {
            throw Damaged(detail: "the index of other bytes (\(historyStart)..<\(historyEnd), not \(start)..<\(end))")
        }
        var shapes: [(pages: Int, count: Int)] = []
        for _ in 0..<Table.count {
            let pages = Int(r.uint32())
            let count = Int(r.uint32())
            guard pages <= 1 << 24, count <= pages * entriesPerPage,
                count > (pages - 1) * entriesPerPage || pages == 0
            else {
                throw Damaged(detail: "impossible table sizes")
            }
            shapes.append((pages, count))
        }
        let keysLength = shapes.reduce(0) { $0 + $1.pages } * 8
        let ranksLength = version >= 3 ? (shapes[0].pages + 1) * 8 : 0
        let listsLength = keysLength + ranksLength
        // The header and every page it counts must be in the file before any is read: the
        // sizes are not checked yet, and reading them would ask for that much memory.
        let headerPages = (fixedLength + listsLength + 32 + pageSize - 1) / pageSize
        guard UInt64((headerPages + keysLength / 8) * pageSize) <= (try fs.status(of: file).size) else {
            throw Damaged(detail: "the index is shorter than its header says")
        }
        let rest = try fs.read(file, count: listsLength + 32, at: UInt64(fixedLength))
        guard rest.count == listsLength + 32 else { throw Damaged(detail: "the header is cut short") }
        let header = fixed + rest[..<listsLength]
        guard try Digest.hash(.sha256, header) == Array(rest[listsLength...]) else {
            throw Damaged(detail: "the header fails its check")
        }
        var lists = Reader(Array(rest[..<listsLength]), at: 0)
        var pageStart = (header.count + 32 + pageSize - 1) / pageSize * pageSize
        var tables: [Shape] = []
        for shape in shapes {
            let firstKeys = (0..<shape.pages).map { _ in lists.uint64() }
            tables.append(
                Shape(pages: shape.pages, count: shape.count, firstKeys: firstKeys, ranks: [], start: pageStart))
            pageStart += shape.pages * pageSize
        }
        if version >= 3 {
            tables[0].ranks = (0...shapes[0].pages).map { _ in lists.uint64() }
            guard tables[0].ranks.first == 0,
                zip(tables[0].ranks, tables[0].ranks.dropFirst()).allSatisfy({ $0 <= $1 }),
                (tables[0].ranks.last ?? 0) <= UInt64(shapes[0].count)
            else { throw Damaged(detail: "impossible ranks") }
        } else {
            // A whole index: no older run, so every key counts.
            tables[0].ranks = (0...shapes[0].pages).map { UInt64(min($0 * entriesPerPage, shapes[0].count)) }
        }
        return HistoryIndex(
            path: path, fs: fs, file: file, generation: generation, historyStart: historyStart, historyEnd: historyEnd,
            tables: tables)
    }

    // MARK: - Looking up

    /// Every entry of `table` with `key`, in table order.
    /// - Throws: `Damaged` when a page fails its check; `SystemCallError` when it cannot be read.
    func entries(_ table: Table, key: UInt64) throws -> [Entry] {
        let shape = tables[table.rawValue]
        // The last page whose first key is below `key` may hold the first entries with it.
        let low = shape.firstKeys.partitionPoint { $0 < key }
        var found: [Entry] = []
        var page = max(0, low - 1)
        while page < shape.pages {
            for entry in try entries(table, page: page) {
                if entry.key == key { found.append(entry) } else if entry.key > key { return found }
            }
            page += 1
        }
        return found
    }

    /// How many `entries` keys below `key` no older run has.
    func ownRank(of key: UInt64) throws -> Int {
        let shape = tables[Table.entries.rawValue]
        let low = shape.firstKeys.partitionPoint { $0 < key }
        guard low > 0 else { return 0 }
        // Every page before `low - 1` is below `key`; that page holds the boundary.
        let page = low - 1
        let within = try entries(.entries, page: page).lazy.filter { $0.key < key && !$0.shadows }.count
        return Int(shape.ranks[page]) + within
    }

    /// The `entries` key that no older run has at `rank` among those (0-based, in key order).
    func ownKey(at rank: Int) throws -> UInt64? {
        let shape = tables[Table.entries.rawValue]
        guard rank >= 0, rank < ownKeys else { return nil }
        // The last page whose rank is at most `rank` holds it.
        let page = shape.ranks.partitionPoint { $0 <= UInt64(rank) } - 1
        guard page >= 0, page < shape.pages else { return nil }
        var left = rank - Int(shape.ranks[page])
        for entry in try entries(.entries, page: page) where !entry.shadows {
            if left == 0 { return entry.key }
            left -= 1
        }
        throw Damaged(detail: "page \(page) of table 0 holds fewer keys than its rank says", path: path)
    }

    /// The smallest `entries` key above `key` (nil: none).
    func key(after key: UInt64) throws -> UInt64? {
        let shape = tables[Table.entries.rawValue]
        // The last page whose first key is at most `key` holds it or the next one begins.
        var page = max(0, shape.firstKeys.partitionPoint { $0 <= key } - 1)
        while page < shape.pages {
            let entries = try entries(.entries, page: page)
            let slot = entries.partitionPoint { $0.key <= key }
            if slot < entries.count { return entries[slot].key }
            page += 1
        }
        return nil
    }

    /// The largest `entries` key below `key` (nil: none).
    func key(before key: UInt64) throws -> UInt64? {
        let shape = tables[Table.entries.rawValue]
        // The last page whose first key is below `key` holds the answer, if any does.
        let page = shape.firstKeys.partitionPoint { $0 < key } - 1
        guard page >= 0 else { return nil }
        let entries = try entries(.entries, page: page)
        let slot = entries.partitionPoint { $0.key < key }
        return slot > 0 ? entries[slot - 1].key : nil
    }

    /// The first and last keys of `table` (nil when it is empty).
    func keyRange(_ table: Table) throws -> ClosedRange<UInt64>? {
        let shape = tables[table.rawValue]
        guard let first = shape.firstKeys.first, let last = try entries(table, page: shape.pages - 1).last?.key,
            first <= last
        else { return nil }
        return first...last
    }

    /// Every entry of `table`, in key order.
    func allEntries(_ table: Table) throws -> [Entry] {
        var all: [Entry] = []
        all.reserveCapacity(count(table))
        for page in 0..<tables[table.rawValue].pages { all += try entries(table, page: page) }
        return all
    }

    private func entries(_ table: Table, page: Int) throws -> [Entry] {
        let number = table.rawValue << 24 | page
        if let cached = lock.withLock({ pages[number] }) { return cached }
        let shape = tables[table.rawValue]
        let bytes = try fs.read(file, count: Self.pageSize, at: UInt64(shape.start + page * Self.pageSize))
        guard bytes.count == Self.pageSize,
            try Digest.hash(.sha256, Self.pageCheckInput(bytes, generation: generation, number: number))
                == Array(bytes[(Self.pageSize - 32)...])
        else { throw Damaged(detail: "page \(page) of table \(table) fails its check", path: path) }
        var r = Reader(bytes, at: Self.entriesPerPage * Self.entrySize)
        let count = Int(r.uint16())
        guard count >= 1, count <= Self.entriesPerPage else {
            throw Damaged(detail: "page \(page) of table \(table) is malformed", path: path)
        }
        var e = Reader(bytes, at: 0)
        let decoded = (0..<count).map { _ in Entry(key: e.uint64(), value: e.uint64(), info: e.uint64()) }
        guard decoded.first?.key == shape.firstKeys[page] else {
            throw Damaged(detail: "page \(page) of table \(table) is misplaced", path: path)
        }
        if table == .entries,
            UInt64(decoded.lazy.filter { !$0.shadows }.count) != shape.ranks[page + 1] &- shape.ranks[page]
        {
            throw Damaged(detail: "page \(page) of table \(table) disagrees with its rank", path: path)
        }
        lock.withLock { pages[number] = decoded }
        return decoded
    }

    /// Takes `tables` (what `write` just wrote to this run's file) as its pages already read
    /// and checked, so that lookups need not read them back.
    func prime(with tables: [[Entry]]) {
        guard tables.count == self.tables.count else { return }
        lock.withLock {
            for (index, table) in tables.enumerated() where table.count == self.tables[index].count {
                for page in 0..<self.tables[index].pages {
                    pages[index << 24 | page] = Array(
                        table[(page * Self.entriesPerPage)..<min(table.count, (page + 1) * Self.entriesPerPage)])
                }
            }
        }
    }
}
