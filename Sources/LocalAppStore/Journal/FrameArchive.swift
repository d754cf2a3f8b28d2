internal import Crypto
import Foundation
internal import SystemIO

/// An append-only file of checked frames beside the journal, found through the runs of its
/// index the journal names (`LayeredIndex`). An item is read and decoded when asked for, then
/// kept. Writing (compaction) and making a run again are `FrameArchive+Writing.swift`.
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

    /// The runs of the index, as the journal's header names them.
    let runs: [ArchiveRun]
    /// The bytes of the data file this generation reads.
    let historyEnd: UInt64
    let dataPath: String
    /// The path of the run a compaction of `generation` writes.
    let indexPath: (UInt64) -> String
    let fs: any FileSystem
    let data: OpenFile
    /// Whether the store was opened read-only: a damaged run is then a failure, not made
    /// again (a read-only store writes nothing).
    let readOnly: Bool
    let lock = NSLock()
    /// The runs' files, oldest first; one is replaced by a run made again from the data file
    /// when a page of it fails its check. Guarded by `lock`.
    var opened: [HistoryIndex]
    /// Items read, by their frame's offset; guarded by `lock`.
    private var decoded: [UInt64: Item] = [:]
    private var firstFailure: LocalAppStoreError?

    /// The first failure a lookup met (nil: none).
    var failure: LocalAppStoreError? { lock.withLock { firstFailure } }

    /// The index as it stands (its runs' files).
    var index: LayeredIndex { lock.withLock { LayeredIndex(runs: opened) } }

    /// Items the index holds.
    var count: Int { index.count }

    init(
        runs: [ArchiveRun], historyEnd: UInt64, dataPath: String, indexPath: @escaping (UInt64) -> String,
        data: OpenFile, opened: [HistoryIndex], fs: any FileSystem, readOnly: Bool
    ) {
        self.runs = runs
        self.historyEnd = historyEnd
        self.dataPath = dataPath
        self.indexPath = indexPath
        self.data = data
        self.opened = opened
        self.fs = fs
        self.readOnly = readOnly
    }

    deinit { fs.close(data) }

    /// The bytes run `number` covers.
    func range(ofRun number: Int) -> Range<UInt64> {
        runs[number].start..<(number + 1 < runs.count ? runs[number + 1].start : historyEnd)
    }

    // MARK: - Looking up

    /// The latest archived version of the item with key `key`.
    func item(key: UInt64) -> Item? {
        lookUp { () throws -> Item? in try latest(key, in: index)?.item } ?? nil
    }

    /// The latest archived version of `key` with its `entries` entry (nil: none, or a failure).
    func latestVersion(_ key: UInt64) -> (item: Item, entry: HistoryIndex.Entry)? {
        lookUp { () throws in try latest(key, in: index) } ?? nil
    }

    /// The items a pairs table lists under `key` (its values are `entries` keys), in key order.
    func items(_ table: HistoryIndex.Table, key: UInt64) -> [Item] {
        lookUp { () throws -> [Item] in
            let index = self.index
            return try index.values(table, key: key).compactMap { try latest($0, in: index)?.item }
        } ?? []
    }

    /// Every archived item whose flags pass `filter`, in key order.
    func items(where filter: (UInt64) -> Bool = { _ in true }) -> [Item] {
        lookUp { try index.allEntries().filter { filter(($0.info & ~HistoryIndex.shadowsBit) >> 32) }.map(frame) }
            ?? []
    }

    /// How many archived items have a key below `key`.
    func rank(of key: UInt64) -> Int {
        lookUp { try index.rank(of: key) } ?? 0
    }

    /// The archived key at `rank` (0-based, in key order).
    func key(at rank: Int) -> UInt64? {
        lookUp { try index.key(at: rank) } ?? nil
    }

    /// The archived key after `key` in order (nil: none, or a failure).
    func key(after key: UInt64) -> UInt64? {
        lookUp { try index.key(after: key) } ?? nil
    }

    /// The archived key before `key` in order (nil: none, or a failure).
    func key(before key: UInt64) -> UInt64? {
        lookUp { try index.key(before: key) } ?? nil
    }

    /// Every key the index holds, in order.
    func keys() -> [UInt64] {
        lookUp { try index.allEntries().map(\.key) } ?? []
    }

    /// The tables of each of the `newest` runs (all by default) whole, oldest first; `nil` when
    /// they cannot be read (`failure` says why).
    func runTables(newest: Int = .max) -> [[[HistoryIndex.Entry]]]? {
        lookUp {
            try index.runs.suffix(newest).map { run in
                try (0..<HistoryIndex.Table.count).map { try run.allEntries(HistoryIndex.Table(rawValue: $0)) }
            }
        }
    }

    /// The items of the frames from byte `start` to the archive's end, in file order (what the
    /// compactions after the one that ended at `start` moved here).
    /// - Throws: `LocalAppStoreError.corrupt` naming a frame that fails its check.
    func frames(from start: UInt64) throws -> [Item] {
        try Self.decodeFrames(in: start..<historyEnd, of: data, path: dataPath, fs: fs).map(\.item)
    }

    /// Runs a lookup; a failure is kept in `failure` (the first one) and answers `nil`. A
    /// run of the index found damaged is made again from the data file, and the lookup tried
    /// again (in a read-only store, it is a failure naming the run's file).
    func lookUp<T>(_ body: () throws -> T) -> T? {
        do {
            return try repairing(body)
        } catch let error as LocalAppStoreError {
            keep(error)
        } catch let error as HistoryIndex.Damaged {
            keep(.corrupt(path: error.path, line: 0, reason: error.detail))
        } catch let error as SystemCallError {
            keep(.io(path: error.path, reason: "\(error.operation) failed: \(error.errno)"))
        } catch {
            keep(.io(path: dataPath, reason: "\(error)"))
        }
        return nil
    }

    /// `body`, run again after making again each run of the index it finds damaged (each at
    /// most once).
    func repairing<T>(_ body: () throws -> T) throws -> T {
        var repaired: Set<Int> = []
        while true {
            do {
                return try body()
            } catch let damage as HistoryIndex.Damaged {
                guard !readOnly else {
                    throw LocalAppStoreError.corrupt(
                        path: damage.path, line: 0,
                        reason:
                            "\(damage.detail) and the store was opened read-only: run any command once with the directory writable to make the index again"
                    )
                }
                guard let number = lock.withLock({ opened.firstIndex { $0.path == damage.path } }),
                    repaired.insert(number).inserted
                else { throw damage }
                try makeRunAgain(number)
            }
        }
    }

    private func keep(_ error: LocalAppStoreError) {
        lock.withLock { if firstFailure == nil { firstFailure = error } }
        ArchiveReadWatch.report(error)
    }

    /// The latest version of `key` in `index`, with its `entries` entry.
    func latest(_ key: UInt64, in index: LayeredIndex) throws -> (item: Item, entry: HistoryIndex.Entry)? {
        guard let entry = try index.latest(key) else { return nil }
        return (try frame(entry), entry)
    }

    /// Reads, checks and decodes the frame an index entry names.
    func frame(_ entry: HistoryIndex.Entry) throws -> Item {
        if let hit = lock.withLock({ decoded[entry.value] }) { return hit }
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
        lock.withLock { decoded[entry.value] = read.item }
        return read.item
    }

    // MARK: - Opening

    /// Opens the archive whose index is `runs` and whose data ends at `end`: the data file and
    /// each run's file, a run made again from the data file when it is missing or damaged (a
    /// crash after the journal named it, or damage); never in a read-only store, which writes
    /// nothing.
    /// - Parameter reusing: runs already open (a compaction's older runs), by file path.
    static func open(
        runs: [ArchiveRun], end: UInt64, dataPath: String, indexPath: @escaping (UInt64) -> String, readOnly: Bool,
        fs: any FileSystem, reusing: [String: HistoryIndex] = [:]
    ) throws(LocalAppStoreError) -> FrameArchive {
        let data: OpenFile
        do {
            data = try fs.open(dataPath, [.read, .noFollow], mode: 0)
        } catch {
            throw .corrupt(
                path: dataPath, line: 0,
                reason: "the journal names an archive that cannot be opened (\(error.errno))")
        }
        let archive = FrameArchive(
            runs: runs, historyEnd: end, dataPath: dataPath, indexPath: indexPath, data: data, opened: [], fs: fs,
            readOnly: readOnly)
        guard runs.first.map({ $0.start == UInt64(headerLength) }) ?? true,
            zip(runs, runs.dropFirst()).allSatisfy({ $0.start < $1.start }), runs.last.map({ $0.start < end }) ?? true
        else {
            throw .corrupt(
                path: dataPath, line: 0,
                reason: "the journal names index runs that do not fit the archive's \(end) bytes")
        }
        for number in runs.indices {
            do {
                try archive.attachRun(number, reusing: reusing)
            } catch let error as LocalAppStoreError {
                throw error
            } catch {
                throw .corrupt(
                    path: indexPath(runs[number].generation), line: 0,
                    reason: "the archive's index cannot be made again: \(error)")
            }
        }
        return archive
    }

    /// Opens run `number` (the older ones are open), or makes it again from the data file.
    private func attachRun(_ number: Int, reusing: [String: HistoryIndex]) throws {
        let run = runs[number]
        let path = indexPath(run.generation)
        let bytes = range(ofRun: number)
        if let reused = reusing[path], reused.generation == run.generation, reused.historyStart == bytes.lowerBound,
            reused.historyEnd == bytes.upperBound
        {
            lock.withLock { opened.append(reused) }
            return
        }
        if let index = try? HistoryIndex.open(
            path, generation: run.generation, start: bytes.lowerBound, end: bytes.upperBound, fs: fs)
        {
            lock.withLock { opened.append(index) }
            return
        }
        if readOnly {
            throw LocalAppStoreError.corrupt(
                path: path, line: 0,
                reason:
                    "the archive's index is missing or damaged and the store was opened read-only: run any command once with the directory writable to make it again"
            )
        }
        // A placeholder the rebuild replaces: the runs below it are what it looks up in.
        try repairing { () throws in try makeRunAgain(number, appending: true) }
    }
}
