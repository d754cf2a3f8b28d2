import Crypto
import SystemIO

/// The vault's index, `NAME.idx` beside the vault (Docs/formats/vault.md, "The index"): for
/// every live item as of a point of the log, where its latest record is. Opening a vault reads
/// the index's header and replays only the records after that point; an item is read (and
/// authenticated, with its chain link and sequence number) when asked for.
///
/// It is a cache: authenticated (HMAC under a key derived from the data key and the file id),
/// written without fsync, never required. One that is missing, damaged, for another file or
/// that the file does not match is ignored, and the whole log is read as before.
final class VaultIndex {
    /// One item: its key (`RecordCodec.indexKey`: service tag ‖ 12 bytes of item tag), where
    /// its latest record starts and that record's sequence number.
    struct Entry: Equatable {
        var key: [UInt8]
        var offset: UInt64
        var sequence: UInt64

        static func < (a: Entry, b: Entry) -> Bool { a.key.lexicographicallyPrecedes(b.key) }
    }

    /// A page of the index that does not authenticate: the index is dropped and the log read
    /// whole instead (`VaultStore`), never used.
    struct Damaged: Error {
        let page: Int
    }

    static let magic: [UInt8] = Array("SFVIDX\0\u{1}".utf8)
    static let version: UInt16 = 1
    static let pageSize = 4096
    static let entrySize = 32
    static let entriesPerPage = 127
    static let fixedHeaderLength = 96

    /// What the index's header says, read and authenticated when it was opened.
    private let header: Header

    /// The file offset just past the last record the index covers.
    var coveredEnd: UInt64 { header.coveredEnd }
    /// The sequence number of the record that follows `coveredEnd`.
    var nextSequence: UInt64 { header.nextSequence }
    /// The tag of the record that ends at `coveredEnd` (the file id when there is none).
    var chain: [UInt8] { header.chain }
    /// Records before `coveredEnd`.
    var recordCount: Int { header.recordCount }
    /// Entries (live items at `coveredEnd`).
    var itemCount: Int { header.itemCount }

    private let fs: any FileSystem
    private let file: OpenFile
    private let macKey: HMACKey
    private let path: String
    private var pages: [Int: [Entry]] = [:]

    private init(
        fs: any FileSystem, file: OpenFile, path: String, macKey: HMACKey, header: Header
    ) {
        self.fs = fs
        self.file = file
        self.path = path
        self.macKey = macKey
        self.header = header
    }

    deinit { fs.close(file) }

    // MARK: - Opening

    /// The header's members: the log's position it covers, its id and each page's first key.
    private struct Header {
        var coveredEnd: UInt64
        var nextSequence: UInt64
        var chain: [UInt8]
        var recordCount: Int
        var itemCount: Int
        var indexID: [UInt8]
        var firstKeys: [[UInt8]]
        var pagesStart: UInt64
    }

    /// Opens the index at `path` when it is this file's and authentic; `nil` otherwise.
    /// - Parameters:
    ///   - fileID: the vault's file id (an index made before a compaction names another).
    ///   - codec: the vault's codec (its index key).
    static func open(_ path: String, fileID: [UInt8], codec: RecordCodec, fs: any FileSystem) -> VaultIndex? {
        guard let file = try? fs.open(path, [.read, .noFollow], mode: 0) else { return nil }
        guard let header = try? readHeader(file, fileID: fileID, codec: codec, fs: fs) else {
            fs.close(file)
            return nil
        }
        return VaultIndex(fs: fs, file: file, path: path, macKey: codec.indexMACKey, header: header)
    }

    private static func readHeader(
        _ file: OpenFile, fileID: [UInt8], codec: RecordCodec, fs: any FileSystem
    ) throws -> Header? {
        let fixed = try fs.read(file, count: fixedHeaderLength, at: 0)
        guard fixed.count == fixedHeaderLength, Array(fixed[0..<8]) == magic else { return nil }
        var r = ByteReader(fixed[8...])
        guard let version = r.uint16(), version == Self.version, r.take(2) != nil, let pageCount = r.uint32(),
            let id = r.take(16), Array(id) == fileID, let end = r.uint64(), let sequence = r.uint64(),
            let chain = r.take(16), let records = r.uint64(), let items = r.uint64(), let indexID = r.take(16),
            pageCount <= 1 << 26, items <= UInt64(pageCount) * UInt64(entriesPerPage), records <= UInt64(Int.max)
        else { return nil }
        let headerLength = fixedHeaderLength + Int(pageCount) * 16 + 32
        // The header and every page it counts must be in the file before the header is read
        // whole: its page count is not authenticated yet (reading it would ask for that much memory).
        let pagesStart = (headerLength + pageSize - 1) / pageSize * pageSize
        guard UInt64(pagesStart + Int(pageCount) * pageSize) <= (try fs.status(of: file).size) else { return nil }
        let rest = try fs.read(file, count: headerLength - fixedHeaderLength, at: UInt64(fixedHeaderLength))
        guard rest.count == headerLength - fixedHeaderLength else { return nil }
        let whole = fixed + rest
        let mac = try codec.indexMACKey.authenticate(Array(whole[..<(headerLength - 32)]))
        guard HMAC.equal(mac, Array(whole[(headerLength - 32)...])) else { return nil }
        var firstKeys: [[UInt8]] = []
        firstKeys.reserveCapacity(Int(pageCount))
        for page in 0..<Int(pageCount) {
            let start = fixedHeaderLength + page * 16
            firstKeys.append(Array(whole[start..<(start + 16)]))
        }
        return Header(
            coveredEnd: end, nextSequence: sequence, chain: Array(chain), recordCount: Int(records),
            itemCount: Int(items), indexID: Array(indexID), firstKeys: firstKeys,
            pagesStart: UInt64(pagesStart))
    }

    // MARK: - Looking up

    /// The entries whose key starts with `prefix` (a whole key, or a service tag), in key order.
    /// - Throws: `Damaged` when a page does not authenticate, `VaultError.io` when it cannot
    ///   be read.
    func entries(withPrefix prefix: [UInt8]) throws -> [Entry] {
        guard !header.firstKeys.isEmpty else { return [] }
        // The last page whose first key sorts before the prefix may hold its first entries.
        var low = 0
        var high = header.firstKeys.count
        while low < high {
            let middle = (low + high) / 2
            if header.firstKeys[middle].lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
        }
        var page = max(0, low - 1)
        var found: [Entry] = []
        while page < header.firstKeys.count {
            for entry in try entries(onPage: page) {
                if entry.key.starts(with: prefix) {
                    found.append(entry)
                } else if prefix.lexicographicallyPrecedes(entry.key) {
                    return found
                }
            }
            page += 1
        }
        return found
    }

    /// Every entry, in key order.
    func allEntries() throws -> [Entry] {
        var all: [Entry] = []
        all.reserveCapacity(itemCount)
        for page in 0..<header.firstKeys.count { all += try entries(onPage: page) }
        return all
    }

    private func entries(onPage page: Int) throws -> [Entry] {
        if let cached = pages[page] { return cached }
        let offset = header.pagesStart + UInt64(page * Self.pageSize)
        let bytes: [UInt8]
        do { bytes = try fs.read(file, count: Self.pageSize, at: offset) } catch {
            throw VaultError.io(path: path, operation: error.operation, errno: error.code)
        }
        guard bytes.count == Self.pageSize,
            let decoded = Self.decodePage(bytes, number: page, indexID: header.indexID, macKey: macKey),
            decoded.first?.key == header.firstKeys[page]
        else { throw Damaged(page: page) }
        pages[page] = decoded
        return decoded
    }

    // MARK: - Pages

    /// A page: up to 127 entries (key 16 ‖ offset 8 ‖ sequence 8), the entry count (2 bytes),
    /// zeros to byte 4080, then HMAC(index key, index id ‖ page number ‖ bytes 0..<4080)[0..16].
    private static func encodePage(
        _ entries: ArraySlice<Entry>, number: Int, indexID: [UInt8], macKey: HMACKey
    ) throws -> [UInt8] {
        var w = ByteWriter(capacity: pageSize)
        for entry in entries {
            w.append(entry.key)
            w.uint64(entry.offset)
            w.uint64(entry.sequence)
        }
        w.append([UInt8](repeating: 0, count: entriesPerPage * entrySize - entries.count * entrySize))
        w.uint16(UInt16(entries.count))
        w.append([UInt8](repeating: 0, count: pageSize - 16 - w.bytes.count))
        w.append(try pageMAC(w.bytes, number: number, indexID: indexID, macKey: macKey))
        return w.bytes
    }

    private static func decodePage(_ bytes: [UInt8], number: Int, indexID: [UInt8], macKey: HMACKey) -> [Entry]? {
        guard
            let mac = try? pageMAC(Array(bytes[..<(pageSize - 16)]), number: number, indexID: indexID, macKey: macKey),
            HMAC.equal(mac, Array(bytes[(pageSize - 16)...]))
        else { return nil }
        var r = ByteReader(bytes[(entriesPerPage * entrySize)...])
        guard let count = r.uint16(), count >= 1, Int(count) <= entriesPerPage else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        var e = ByteReader(bytes[...])
        for _ in 0..<Int(count) {
            guard let key = e.take(16), let offset = e.uint64(), let sequence = e.uint64() else { return nil }
            entries.append(Entry(key: Array(key), offset: offset, sequence: sequence))
        }
        return entries
    }

    private static func pageMAC(_ body: [UInt8], number: Int, indexID: [UInt8], macKey: HMACKey) throws -> [UInt8] {
        var w = ByteWriter(capacity: body.count + 20)
        w.append(indexID)
        w.uint32(UInt32(number))
        w.append(body)
        return Array(try macKey.authenticate(w.bytes).prefix(16))
    }

    // MARK: - Writing

    /// What an index describes: the log's position and its live items.
    struct Snapshot {
        var fileID: [UInt8]
        var coveredEnd: UInt64
        var nextSequence: UInt64
        var chain: [UInt8]
        var recordCount: Int
        /// Every live item's entry, sorted by key.
        var entries: [Entry]
    }

    /// Writes `snapshot` to `path` through a private temporary renamed into place. Nothing is
    /// synced: a lost or torn index is ignored on the next open, and the log is read instead.
    /// - Throws: `SystemCallError` when it cannot be written (the caller may ignore it).
    static func write(
        _ snapshot: Snapshot, to path: String, codec: RecordCodec, fs: any FileSystem, temporarySuffix: String
    ) throws {
        let indexID = try SecureRandom.bytes(count: 16)
        let pageCount = (snapshot.entries.count + entriesPerPage - 1) / entriesPerPage
        var w = ByteWriter(capacity: fixedHeaderLength + pageCount * 16 + 32)
        w.append(magic)
        w.uint16(version)
        w.uint16(0)
        w.uint32(UInt32(pageCount))
        w.append(snapshot.fileID)
        w.uint64(snapshot.coveredEnd)
        w.uint64(snapshot.nextSequence)
        w.append(snapshot.chain)
        w.uint64(UInt64(snapshot.recordCount))
        w.uint64(UInt64(snapshot.entries.count))
        w.append(indexID)
        for page in 0..<pageCount { w.append(snapshot.entries[page * entriesPerPage].key) }
        w.append(try codec.indexMACKey.authenticate(w.bytes))
        let headerLength = w.bytes.count
        w.append([UInt8](repeating: 0, count: (headerLength + pageSize - 1) / pageSize * pageSize - headerLength))
        for page in 0..<pageCount {
            let slice = snapshot.entries[
                (page * entriesPerPage)..<min(snapshot.entries.count, (page + 1) * entriesPerPage)]
            w.append(try encodePage(slice, number: page, indexID: indexID, macKey: codec.indexMACKey))
        }
        try fs.replaceAtomically(
            path, with: w.bytes, temporaryPath: path + ".tmp-" + temporarySuffix, fileSync: nil, syncsDirectory: false)
    }
}
