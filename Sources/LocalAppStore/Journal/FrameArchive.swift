internal import Crypto
import Foundation
internal import SystemIO

/// What one archive beside the journal keeps and how its index finds it: the queue's finished
/// entries (`HistoryLayout`, `history.dat`) and the settled notifications (`OutboxLayout`,
/// `outbox.dat`). The frames, their checks, the index and its making again are `FrameArchive`'s.
protocol ArchiveLayout {
    associatedtype Item: Codable & Sendable
    /// The data file's first 16 bytes: its name and version.
    static var magic: [UInt8] { get }
    /// The item's key in the index's `entries` table (its latest frame wins); `nil` for an item
    /// that cannot be archived.
    static func key(of item: Item) -> UInt64?
    /// What the `entries` table keeps beside the frame's length (bits 32 and up of `info`).
    static func flags(of item: Item) -> UInt64
    /// The index's other three tables: `old`'s (empty arrays for none) with `moved` added in
    /// file order, each frame with the version of its item it replaces.
    static func tables(old: [[HistoryIndex.Entry]], adding moved: [ArchiveFrame<Item>]) -> [[HistoryIndex.Entry]]
}

/// A frame just written or read, for the index: its item, the version it replaces, and its
/// `entries` table entry.
struct ArchiveFrame<Item> {
    let item: Item
    let previous: Item?
    let entry: HistoryIndex.Entry
}

/// An append-only file of checked frames beside the journal, found through one generation's
/// index (`HistoryIndex`). An item is read and decoded when asked for, then kept.
///
/// The file: a 16-byte header (the layout's `magic`), then frames: payload length (UInt32), the
/// first 8 bytes of the payload's SHA-256, the payload (the item as JSON). A frame is checked
/// when read; one that fails is a clear error, never wrong data.
///
/// Lookups do not throw, so that the journal's rules read it as they read the journal's own
/// records: a failure is kept in `failure`, and the journal refuses to act on a draft that met
/// one (`StoreJournal.transact`) or to answer from it (`StoreJournal.checked`); a reader of
/// snapshots learns of the failures its own lookups meet through `ArchiveReadWatch`.
final class FrameArchive<Layout: ArchiveLayout>: @unchecked Sendable {
    typealias Item = Layout.Item
    static var headerLength: Int { 16 }

    /// The compaction that wrote the index.
    var generation: UInt64 { index.generation }
    /// The bytes of the data file this generation reads.
    var historyEnd: UInt64 { index.historyEnd }
    let dataPath: String
    private let fs: any FileSystem
    private let data: OpenFile
    /// Whether the store was opened read-only: a damaged index page is then a failure, not
    /// made again (a read-only store writes nothing).
    private let readOnly: Bool
    /// The index; replaced by one made again from the data file when a page fails its check.
    private(set) var index: HistoryIndex
    private let lock = NSLock()
    private var decoded: [UInt64: Item] = [:]
    private var firstFailure: LocalAppStoreError?

    /// The first failure a lookup met (nil: none).
    var failure: LocalAppStoreError? { lock.withLock { firstFailure } }

    /// Items the index holds.
    var count: Int { index.count(.entries) }

    init(dataPath: String, data: OpenFile, index: HistoryIndex, fs: any FileSystem, readOnly: Bool = false) {
        self.dataPath = dataPath
        self.data = data
        self.index = index
        self.fs = fs
        self.readOnly = readOnly
    }

    deinit { fs.close(data) }

    // MARK: - Looking up

    /// The latest archived version of the item with key `key`.
    func item(key: UInt64) -> Item? {
        lookUp { () throws -> Item? in try latest(key) } ?? nil
    }

    /// The items a pairs table lists under `key` (its values are `entries` keys), in key order.
    func items(_ table: HistoryIndex.Table, key: UInt64) -> [Item] {
        lookUp { try index.entries(table, key: key).compactMap { try latest($0.value) } } ?? []
    }

    /// Every archived item whose flags pass `filter`, in key order.
    func items(where filter: (UInt64) -> Bool = { _ in true }) -> [Item] {
        lookUp { try index.allEntries(.entries).filter { filter($0.info >> 32) }.map(frame) } ?? []
    }

    /// How many archived items have a key below `key`.
    func rank(of key: UInt64) -> Int {
        lookUp { try index.rank(.entries, of: key) } ?? 0
    }

    /// The archived key at `rank` (0-based, in key order).
    func key(at rank: Int) -> UInt64? {
        lookUp { try index.entry(.entries, at: rank)?.key } ?? nil
    }

    /// Every key the index holds, in order.
    func keys() -> [UInt64] {
        lookUp { try index.allEntries(.entries).map(\.key) } ?? []
    }

    /// The index's four tables whole (what the next compaction's index starts from); `nil`
    /// when they cannot be read (`failure` says why).
    func indexTables() -> [[HistoryIndex.Entry]]? {
        lookUp { try (0..<HistoryIndex.Table.count).map { try index.allEntries(HistoryIndex.Table(rawValue: $0)) } }
    }

    /// The items of the frames from byte `start` to the archive's end, in file order (what the
    /// compactions after the one that ended at `start` moved here).
    /// - Throws: `LocalAppStoreError.corrupt` naming a frame that fails its check.
    func frames(from start: UInt64) throws -> [Item] {
        guard start < historyEnd else { return [] }
        try Self.checkEnd(historyEnd, of: data, path: dataPath, fs: fs)
        let bytes = try fs.read(data, count: Int(historyEnd - start), at: start)
        guard bytes.count == Int(historyEnd - start) else {
            throw LocalAppStoreError.corrupt(
                path: dataPath, line: 0, reason: "the archive is shorter than the journal says")
        }
        var found: [Item] = []
        var position = 0
        while position < bytes.count {
            let (item, length) = try Self.decodeFrame(
                bytes, from: position, at: start + UInt64(position), path: dataPath)
            found.append(item)
            position += length
        }
        return found
    }

    /// Runs a lookup; a failure is kept in `failure` (the first one) and answers `nil`. A
    /// damaged index is made again from the data file, once, and the lookup tried again (in a
    /// read-only store, it is a failure naming the index).
    func lookUp<T>(_ body: () throws -> T) -> T? {
        do {
            do {
                return try body()
            } catch let damage as HistoryIndex.Damaged where readOnly {
                throw LocalAppStoreError.corrupt(
                    path: index.path, line: 0,
                    reason:
                        "\(damage.detail) and the store was opened read-only: run any command once with the directory writable to make the index again"
                )
            } catch is HistoryIndex.Damaged {
                try Self.rebuildIndex(
                    generation: generation, historyEnd: index.historyEnd, data: data, dataPath: dataPath,
                    indexPath: index.path, fs: fs)
                let rebuilt = try HistoryIndex.open(index.path, generation: generation, fs: fs)
                lock.withLock { index = rebuilt }
                return try body()
            }
        } catch let error as LocalAppStoreError {
            keep(error)
        } catch let error as HistoryIndex.Damaged {
            keep(.corrupt(path: index.path, line: 0, reason: error.detail))
        } catch let error as SystemCallError {
            keep(.io(path: error.path, reason: "\(error.operation) failed: \(error.errno)"))
        } catch {
            keep(.io(path: dataPath, reason: "\(error)"))
        }
        return nil
    }

    private func keep(_ error: LocalAppStoreError) {
        lock.withLock { if firstFailure == nil { firstFailure = error } }
        ArchiveReadWatch.report(error)
    }

    private func latest(_ key: UInt64) throws -> Item? {
        try index.entries(.entries, key: key).first.map { try frame($0) }
    }

    /// Reads, checks and decodes the frame an index entry names.
    private func frame(_ entry: HistoryIndex.Entry) throws -> Item {
        if let hit = lock.withLock({ decoded[entry.key] }) { return hit }
        let length = Int(UInt32(truncatingIfNeeded: entry.info))
        // Subtracted, not added: an entry's offset may be anything (a damaged index that passes its check).
        guard entry.value >= UInt64(Self.headerLength), entry.value <= historyEnd,
            historyEnd - entry.value >= 12 + UInt64(length)
        else {
            throw LocalAppStoreError.corrupt(
                path: dataPath, line: 0, reason: "the index names bytes \(entry.value)… outside the archive")
        }
        let bytes = try fs.read(data, count: 12 + length, at: entry.value)
        let read = try Self.decodeFrame(bytes, from: 0, at: entry.value, path: dataPath)
        guard Layout.key(of: read.item) == entry.key, read.length == 12 + length else {
            throw LocalAppStoreError.corrupt(
                path: dataPath, line: 0, reason: "the frame at byte \(entry.value) is not item \(entry.key)'s")
        }
        lock.withLock { decoded[entry.key] = read.item }
        return read.item
    }

    // MARK: - Opening

    /// Opens generation `generation`'s archive: the data file and its index, making the index
    /// again from the data file when it is missing or damaged (a crash after the journal named
    /// it, or damage); never in a read-only store, which writes nothing.
    /// - Parameter primed: the tables the caller just wrote to the index, taken as read (`HistoryIndex.prime`).
    static func open(
        generation: UInt64, historyEnd: UInt64, dataPath: String, indexPath: String, readOnly: Bool, fs: any FileSystem,
        primed: [[HistoryIndex.Entry]]? = nil
    ) throws(LocalAppStoreError) -> FrameArchive {
        let data: OpenFile
        do {
            data = try fs.open(dataPath, [.read, .noFollow], mode: 0)
        } catch {
            throw .corrupt(
                path: dataPath, line: 0,
                reason: "journal generation \(generation) names an archive that cannot be opened (\(error.errno))")
        }
        if let index = try? HistoryIndex.open(indexPath, generation: generation, fs: fs), index.historyEnd == historyEnd
        {
            if let primed { index.prime(with: primed) }
            return FrameArchive(dataPath: dataPath, data: data, index: index, fs: fs, readOnly: readOnly)
        }
        if readOnly {
            fs.close(data)
            throw .corrupt(
                path: indexPath, line: 0,
                reason:
                    "the archive's index is missing or damaged and the store was opened read-only: run any command once with the directory writable to make it again"
            )
        }
        do {
            try rebuildIndex(
                generation: generation, historyEnd: historyEnd, data: data, dataPath: dataPath, indexPath: indexPath,
                fs: fs)
            let index = try HistoryIndex.open(indexPath, generation: generation, fs: fs)
            return FrameArchive(dataPath: dataPath, data: data, index: index, fs: fs)
        } catch let error as LocalAppStoreError {
            fs.close(data)
            throw error
        } catch {
            fs.close(data)
            throw .corrupt(path: indexPath, line: 0, reason: "the archive's index cannot be made again: \(error)")
        }
    }

    // MARK: - Writing (compaction)

    /// Appends `items` to the data file after `old`'s end (creating the file when there is no
    /// `old`; cutting off first what a crashed compaction appended past that end), synced when
    /// `sync`, then writes generation `generation`'s index of the whole archive at `indexPath`.
    /// - Returns: the archive's new end and the index's tables (to `open` it primed with them).
    static func append(
        _ items: [Item], after old: FrameArchive?, dataPath: String, generation: UInt64, indexPath: String, sync: Bool,
        encoder: JSONEncoder, fs: any FileSystem, metrics: StoreMetrics
    ) throws(LocalAppStoreError) -> (end: UInt64, tables: [[HistoryIndex.Entry]]) {
        var end = old?.historyEnd ?? UInt64(headerLength)
        var frames: [ArchiveFrame<Item>] = []
        var bytes: [UInt8] = []
        for item in items {
            guard let key = Layout.key(of: item) else { continue }
            let frame: [UInt8]
            do {
                frame = try encodeFrame(item, encoder: encoder)
            } catch {
                throw .io(path: dataPath, reason: "cannot encode an item: \(error)")
            }
            let entry = HistoryIndex.Entry(
                key: key, value: end + UInt64(bytes.count),
                info: Layout.flags(of: item) << 32 | UInt64(frame.count - 12))
            frames.append(ArchiveFrame(item: item, previous: old?.item(key: key), entry: entry))
            bytes += frame
        }
        // Nothing to append to an archive that exists: only its index is written anew.
        if !frames.isEmpty || old == nil {
            try write(bytes, at: end, creating: old == nil, dataPath: dataPath, sync: sync, fs: fs, metrics: metrics)
        }
        end += UInt64(bytes.count)
        if let failure = old?.failure { throw failure }

        // The index of the whole archive: the old one's tables, with the moved items' new frames.
        var oldTables: [[HistoryIndex.Entry]] = Array(repeating: [], count: HistoryIndex.Table.count)
        if let old {
            // Through the archive, so that a damaged page makes the index again from the data file.
            guard let tables = old.indexTables() else {
                throw old.failure
                    ?? .corrupt(path: old.index.path, line: 0, reason: "the archive's index cannot be read")
            }
            oldTables = tables
        }
        let tables = try writeIndex(
            old: oldTables, adding: frames, generation: generation, historyEnd: end, path: indexPath, fs: fs,
            temporarySuffix: "\(ProcessInfo.processInfo.processIdentifier)")
        return (end, tables)
    }

    /// Writes `bytes` at `end` of the data file (made with its header when `creating`), after
    /// cutting off what a crashed compaction appended past `end`; synced when `sync`.
    private static func write(
        _ bytes: [UInt8], at end: UInt64, creating: Bool, dataPath: String, sync: Bool, fs: any FileSystem,
        metrics: StoreMetrics
    ) throws(LocalAppStoreError) {
        do throws(SystemCallError) {
            let data = try fs.open(dataPath, [.readWrite, .create, .noFollow], mode: 0o600)
            defer { fs.close(data) }
            let size = try fs.status(of: data).size
            if creating, size < UInt64(headerLength) { try fs.write(data, Layout.magic[...], at: 0) }
            // Whatever a crashed compaction appended past the archive's end is not archived.
            if size > end { try fs.truncate(data, to: end) }
            try fs.write(data, bytes[...], at: end)
            if sync {
                try fs.synchronize(data, .data)
                metrics.countFsync()
                // A new file's name too, before a journal that names the archive can be.
                if creating {
                    try fs.synchronizeDirectory(
                        String(dataPath[..<(dataPath.lastIndex(of: "/") ?? dataPath.startIndex)]))
                    metrics.countFsync()
                }
            }
        } catch {
            throw StoreJournal.ioError(error)
        }
    }

    /// Writes an index: `old`'s four tables with `frames` added (the latest frame of a key wins).
    /// - Returns: the tables written.
    @discardableResult
    private static func writeIndex(
        old: [[HistoryIndex.Entry]], adding frames: [ArchiveFrame<Item>], generation: UInt64, historyEnd: UInt64,
        path: String,
        fs: any FileSystem, temporarySuffix: String
    ) throws(LocalAppStoreError) -> [[HistoryIndex.Entry]] {
        var latest: [UInt64: HistoryIndex.Entry] = [:]
        for frame in frames { latest[frame.entry.key] = frame.entry }
        let tables =
            [HistoryIndex.replacing(old[0], with: Array(latest.values))]
            + Layout.tables(old: Array(old[1...]), adding: frames)
        do throws(SystemCallError) {
            try HistoryIndex.write(
                tables, generation: generation, historyEnd: historyEnd, to: path, fs: fs,
                temporarySuffix: temporarySuffix)
        } catch {
            throw StoreJournal.ioError(error)
        }
        return tables
    }

    // MARK: - Making the index again

    /// Makes generation `generation`'s index at `indexPath` from the data file's frames (the
    /// last frame of a key wins): what a lost or damaged index costs, once.
    static func rebuildIndex(
        generation: UInt64, historyEnd: UInt64, data: OpenFile, dataPath: String, indexPath: String, fs: any FileSystem
    ) throws {
        try checkEnd(historyEnd, of: data, path: dataPath, fs: fs)
        let bytes = try fs.read(data, count: Int(historyEnd), at: 0)
        guard bytes.count == Int(historyEnd), Array(bytes.prefix(headerLength)) == Layout.magic else {
            throw LocalAppStoreError.corrupt(
                path: dataPath, line: 0, reason: "the archive is shorter than the journal says, or not this archive")
        }
        var frames: [ArchiveFrame<Item>] = []
        var latest: [UInt64: Item] = [:]
        var position = headerLength
        while position < bytes.count {
            let (item, length) = try decodeFrame(bytes, from: position, at: UInt64(position), path: dataPath)
            guard let key = Layout.key(of: item) else {
                throw LocalAppStoreError.corrupt(
                    path: dataPath, line: 0, reason: "the frame at byte \(position) has no key")
            }
            let entry = HistoryIndex.Entry(
                key: key, value: UInt64(position), info: Layout.flags(of: item) << 32 | UInt64(length - 12))
            frames.append(ArchiveFrame(item: item, previous: latest.updateValue(item, forKey: key), entry: entry))
            position += length
        }
        try writeIndex(
            old: Array(repeating: [], count: HistoryIndex.Table.count), adding: frames, generation: generation,
            historyEnd: historyEnd, path: indexPath, fs: fs,
            temporarySuffix: "\(ProcessInfo.processInfo.processIdentifier)-rebuild")
    }

    /// Checks that the data file holds the `end` bytes the journal names, before they are read
    /// (a damaged journal may name any end: reading it would ask for that much memory).
    /// - Throws: `LocalAppStoreError.corrupt` naming the data file when it is shorter.
    static func checkEnd(_ end: UInt64, of data: OpenFile, path: String, fs: any FileSystem) throws {
        let size = try fs.status(of: data).size
        guard end >= UInt64(headerLength), end <= size else {
            throw LocalAppStoreError.corrupt(
                path: path, line: 0,
                reason:
                    "the journal names \(end) bytes of the archive, which holds \(size): the archive is shorter than the journal says, or not this archive"
            )
        }
    }

    // MARK: - Frames

    /// A frame's bytes for `item`.
    static func encodeFrame(_ item: Item, encoder: JSONEncoder) throws -> [UInt8] {
        let payload = Array(try encoder.encode(item))
        var w = HistoryIndex.Writer()
        w.uint32(UInt32(payload.count))
        w.append(Array(try Digest.hash(.sha256, payload).prefix(8)))
        w.append(payload)
        return w.bytes
    }

    /// Decodes the frame that starts at `bytes[position]` (found at byte `offset` of the file).
    /// - Returns: the item and the frame's length.
    /// - Throws: `LocalAppStoreError.corrupt` when the frame is cut short, fails its check or
    ///   holds no item.
    static func decodeFrame(
        _ bytes: [UInt8], from position: Int, at offset: UInt64, path: String
    ) throws -> (item: Item, length: Int) {
        guard bytes.count - position >= 12 else {
            throw LocalAppStoreError.corrupt(path: path, line: 0, reason: "the frame at byte \(offset) is cut short")
        }
        var r = HistoryIndex.Reader(bytes, at: position)
        let length = Int(r.uint32())
        guard bytes.count - position - 12 >= length else {
            throw LocalAppStoreError.corrupt(path: path, line: 0, reason: "the frame at byte \(offset) is cut short")
        }
        let payload = bytes[(position + 12)..<(position + 12 + length)]
        guard try Digest.hash(.sha256, Array(payload)).prefix(8).elementsEqual(bytes[(position + 4)..<(position + 12)])
        else {
            throw LocalAppStoreError.corrupt(path: path, line: 0, reason: "the frame at byte \(offset) fails its check")
        }
        do {
            return (try JSONDecoder().decode(Item.self, from: Data(payload)), 12 + length)
        } catch {
            throw LocalAppStoreError.corrupt(
                path: path, line: 0, reason: "the frame at byte \(offset) is not an item (\(error))")
        }
    }
}
