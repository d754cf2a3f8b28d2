import Catalog
internal import Crypto
import Foundation
import StoreCore
internal import SystemIO

/// Writing an archive (compaction): frames appended to the data file, synced, and one run of
/// the index for them, or one that merges them with the newest runs (`LayeredIndex.mergeCount`);
/// and a run made again from the frames it covers when its file is lost or damaged.
extension FrameArchive {
    /// Appends `items` to the data file after `old`'s end (creating the file when there is no
    /// `old`; cutting off first what a crashed compaction appended past that end), synced when
    /// `sync`, then writes generation `generation`'s run of the index for them (merged with
    /// the newest runs when they are small beside it).
    /// - Returns: the archive with them, its runs those the new journal names.
    static func append(
        _ items: [Item], after old: FrameArchive?, dataPath: String, generation: UInt64,
        indexPath: @escaping (UInt64) -> String, sync: Bool, encoder: StreamingJSONEncoder, fs: any FileSystem,
        metrics: StoreMetrics
    ) throws(LocalAppStoreError) -> FrameArchive {
        let start = old?.historyEnd ?? UInt64(headerLength)
        var frames: [ArchiveFrame<Item>] = []
        var writer = try DataFileWriter(dataPath: dataPath, end: start, creating: old == nil, fs: fs)
        defer { writer.close() }
        for item in items {
            guard let key = Layout.key(of: item) else { continue }
            let frame: [UInt8]
            do {
                frame = try encodeFrame(item, encoder: encoder)
            } catch {
                throw .io(path: dataPath, reason: "cannot encode an item: \(error)")
            }
            let previous = old?.latestVersion(key)
            let entry = HistoryIndex.Entry(
                key: key, value: writer.end,
                info: Layout.flags(of: item) << 32 | UInt64(frame.count - 12)
                    | (previous == nil ? 0 : HistoryIndex.shadowsBit))
            frames.append(ArchiveFrame(item: item, previous: previous?.item, entry: entry))
            try writer.append(frame)
        }
        try writer.finish(sync: sync, metrics: metrics)
        let end = writer.end
        if let failure = old?.failure { throw failure }

        var runs = old?.runs ?? []
        var reusing: [String: HistoryIndex] = [:]
        for run in old?.index.runs ?? [] { reusing[run.path] = run }
        if !frames.isEmpty {
            var tables = runTables(frames)
            var runStart = start
            let older = old?.index.runs ?? []
            let merging = LayeredIndex.mergeCount(sizes: older.map { $0.count(.entries) }, adding: tables[0].count)
            if merging > 0, let old {
                // Through the archive, so that a damaged page makes its run again from the data file.
                guard let merged = old.runTables(newest: merging) else {
                    throw old.failure
                        ?? .corrupt(path: dataPath, line: 0, reason: "the archive's index cannot be read")
                }
                tables = LayeredIndex.merged(merged + [tables], kinds: Layout.tableKinds)
                runStart = runs[runs.count - merging].start
                runs.removeLast(merging)
            }
            let path = indexPath(generation)
            reusing[path] = try writeRun(
                tables, generation: generation, bytes: runStart..<end, path: path, fs: fs,
                temporarySuffix: "\(ProcessInfo.processInfo.processIdentifier)")
            runs.append(ArchiveRun(generation: generation, start: runStart))
        }
        return try open(
            runs: runs, end: end, dataPath: dataPath, indexPath: indexPath, readOnly: false, fs: fs, reusing: reusing)
    }

    /// Appends frames to the data file, a few MiB at a time: the file opened at the first
    /// frame (or at once when `creating`: an archive with no frames yet), cut back to the end
    /// the journal names (what a crashed compaction appended past it is not archived), and
    /// given its header when new; synced at the end. An archive that gets nothing is not touched.
    private struct DataFileWriter {
        let dataPath: String
        let creating: Bool
        let fs: any FileSystem
        private var data: OpenFile?
        /// Where the next frame goes.
        private(set) var end: UInt64
        private var pending: [UInt8] = []
        private var written: UInt64

        init(dataPath: String, end: UInt64, creating: Bool, fs: any FileSystem) throws(LocalAppStoreError) {
            self.dataPath = dataPath
            self.end = end
            self.written = end
            self.creating = creating
            self.fs = fs
            if creating { try open() }
        }

        private mutating func open() throws(LocalAppStoreError) {
            do throws(SystemCallError) {
                let file = try fs.open(dataPath, [.readWrite, .create, .noFollow], mode: 0o600)
                data = file
                // On failure the caller's `close()` closes it.
                let size = try fs.status(of: file).size
                if creating, size < UInt64(headerLength) { try fs.write(file, Layout.magic[...], at: 0) }
                if size > written { try fs.truncate(file, to: written) }
            } catch {
                throw StoreJournal.ioError(error)
            }
        }

        mutating func append(_ frame: [UInt8]) throws(LocalAppStoreError) {
            if data == nil { try open() }
            pending += frame
            end += UInt64(frame.count)
            if pending.count >= 4 << 20 { try flush() }
        }

        /// Closes the file (a writer that failed or finished).
        mutating func close() {
            if let data { fs.close(data) }
            data = nil
        }

        private mutating func flush() throws(LocalAppStoreError) {
            guard let data, !pending.isEmpty else { return }
            do throws(SystemCallError) {
                try fs.write(data, pending[...], at: written)
            } catch {
                throw StoreJournal.ioError(error)
            }
            written += UInt64(pending.count)
            pending.removeAll(keepingCapacity: true)
        }

        /// Writes what is left, syncs when `sync` (and the directory, for a new file, before a
        /// journal that names it can be), and closes the file.
        mutating func finish(sync: Bool, metrics: StoreMetrics) throws(LocalAppStoreError) {
            guard let data else { return }
            defer { close() }
            try flush()
            guard sync else { return }
            do throws(SystemCallError) {
                try fs.synchronize(data, .data)
                metrics.countFsync()
                if creating {
                    try fs.synchronizeDirectory(
                        String(dataPath[..<(dataPath.lastIndex(of: "/") ?? dataPath.startIndex)]))
                    metrics.countFsync()
                }
            } catch {
                throw StoreJournal.ioError(error)
            }
        }
    }

    /// A run's four tables for `frames` (in file order): the `entries` table (each key's
    /// latest frame) and the layout's.
    private static func runTables(_ frames: [ArchiveFrame<Item>]) -> [[HistoryIndex.Entry]] {
        var latest: [UInt64: HistoryIndex.Entry] = [:]
        for frame in frames {
            var entry = frame.entry
            // A key twice in one run keeps the first frame's word on older runs.
            if let earlier = latest[entry.key] {
                entry.info = (entry.info & ~HistoryIndex.shadowsBit) | (earlier.info & HistoryIndex.shadowsBit)
            }
            latest[entry.key] = entry
        }
        return [latest.values.sorted { $0.key < $1.key }] + Layout.tables(adding: frames)
    }

    /// Writes a run's tables at `path` and opens it, primed with them.
    private static func writeRun(
        _ tables: [[HistoryIndex.Entry]], generation: UInt64, bytes: Range<UInt64>, path: String, fs: any FileSystem,
        temporarySuffix: String
    ) throws(LocalAppStoreError) -> HistoryIndex {
        do throws(SystemCallError) {
            try HistoryIndex.write(
                tables, generation: generation, historyStart: bytes.lowerBound, historyEnd: bytes.upperBound, to: path,
                fs: fs, temporarySuffix: temporarySuffix)
        } catch {
            throw StoreJournal.ioError(error)
        }
        do {
            let run = try HistoryIndex.open(
                path, generation: generation, start: bytes.lowerBound, end: bytes.upperBound, fs: fs)
            run.prime(with: tables)
            return run
        } catch let error as SystemCallError {
            throw StoreJournal.ioError(error)
        } catch {
            throw .corrupt(path: path, line: 0, reason: "the run just written does not read back: \(error)")
        }
    }

    // MARK: - Making a run again

    /// Makes run `number` again from the frames it covers (the last frame of a key wins),
    /// looking up the versions they replace in the older runs: what a lost or damaged run
    /// costs, once. The run is put in place of the open one, or after the open ones when
    /// `appending` (while the archive is being opened).
    /// - Throws: `HistoryIndex.Damaged` naming an older run that fails (`repairing` makes
    ///   that one again first), `LocalAppStoreError` for a damaged data file.
    func makeRunAgain(_ number: Int, appending: Bool = false) throws {
        let run = runs[number]
        let bytes = range(ofRun: number)
        let below = LayeredIndex(runs: lock.withLock { Array(opened.prefix(number)) })
        var frames: [ArchiveFrame<Item>] = []
        var inRun: [UInt64: Item] = [:]
        for (item, offset, length) in try Self.decodeFrames(in: bytes, of: data, path: dataPath, fs: fs) {
            guard let key = Layout.key(of: item) else {
                throw LocalAppStoreError.corrupt(
                    path: dataPath, line: 0, reason: "the frame at byte \(offset) has no key")
            }
            let older = inRun[key] == nil ? try latest(key, in: below) : nil
            let entry = HistoryIndex.Entry(
                key: key, value: offset,
                info: Layout.flags(of: item) << 32 | UInt64(length - 12)
                    | (older == nil ? 0 : HistoryIndex.shadowsBit))
            frames.append(ArchiveFrame(item: item, previous: inRun[key] ?? older?.item, entry: entry))
            inRun[key] = item
        }
        let path = indexPath(run.generation)
        let rebuilt = try Self.writeRun(
            Self.runTables(frames), generation: run.generation, bytes: bytes, path: path, fs: fs,
            temporarySuffix: "\(ProcessInfo.processInfo.processIdentifier)-rebuild")
        lock.withLock {
            if appending { opened.append(rebuilt) } else { opened[number] = rebuilt }
        }
    }

    // MARK: - Frames

    /// The frames of `bytes` of the data file, each with its offset and length.
    /// - Throws: `LocalAppStoreError.corrupt` when the data file is shorter than `bytes` or a
    ///   frame fails its check.
    static func decodeFrames(
        in bytes: Range<UInt64>, of data: OpenFile, path: String, fs: any FileSystem
    ) throws -> [(item: Item, offset: UInt64, length: Int)] {
        guard !bytes.isEmpty else { return [] }
        guard bytes.lowerBound >= UInt64(headerLength) else {
            throw LocalAppStoreError.corrupt(path: path, line: 0, reason: "frames are asked for inside the header")
        }
        try checkEnd(bytes.upperBound, of: data, path: path, fs: fs)
        let read = try fs.read(data, count: Int(bytes.count), at: bytes.lowerBound)
        guard read.count == bytes.count else {
            throw LocalAppStoreError.corrupt(
                path: path, line: 0, reason: "the archive is shorter than the journal says")
        }
        var found: [(item: Item, offset: UInt64, length: Int)] = []
        var position = 0
        while position < read.count {
            let offset = bytes.lowerBound + UInt64(position)
            let (item, length) = try decodeFrame(read, from: position, at: offset, path: path)
            found.append((item, offset, length))
            position += length
        }
        return found
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
        let magic = try fs.read(data, count: headerLength, at: 0)
        guard magic == Layout.magic else {
            throw LocalAppStoreError.corrupt(path: path, line: 0, reason: "not this archive (its header differs)")
        }
    }

    /// A frame's bytes for `item`.
    static func encodeFrame(_ item: Item, encoder: StreamingJSONEncoder) throws -> [UInt8] {
        let payload = try encoder.encode(item)
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
        do throws(JSONTapeDecoder.Failure) {
            let item = try JSONTapeDecoder.decode(
                Item.self, from: payload, maximumStringBytes: JournalRecord.maximumStringBytes)
            return (item, 12 + length)
        } catch {
            throw LocalAppStoreError.corrupt(
                path: path, line: 0, reason: "the frame at byte \(offset) is not an item: \(error)")
        }
    }
}
