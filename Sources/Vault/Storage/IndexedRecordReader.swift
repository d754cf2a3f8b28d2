import SystemIO

/// Reads the records index entries name (`VaultIndex.Entry`) and authenticates each one as
/// `VaultStore` always has: its frame check, its sequence number (the entry's), its chain link
/// (the tag of the record just before it), its AEAD tag, the item it is bound to, and that it
/// puts the item the entry's key names.
///
/// The file is read through one window: entries visited in file order cost one `pread` per
/// window (`windowSize`, 1 MiB for a listing) instead of three per record, so a listing reads
/// the record region sequentially in large pieces. Nothing read is kept beyond the window.
struct IndexedRecordReader {
    /// The window a listing reads at once (large enough that the reads are few, small enough
    /// that the allocator reuses its memory rather than faulting in fresh pages each time).
    static let listingWindow = 1 << 20
    /// The window a single item's read starts with: most records fit, so one `pread` suffices.
    static let itemWindow = 8 << 10

    let file: OpenFile
    let fs: any FileSystem
    let codec: RecordCodec
    let path: String
    let headerEnd: UInt64
    /// Where the verified records end: nothing past it is read.
    let end: UInt64
    let windowSize: Int
    private var window: [UInt8] = []
    private var windowStart: UInt64 = 0

    init(file: OpenFile, fs: any FileSystem, codec: RecordCodec, path: String, headerEnd: UInt64, end: UInt64, windowSize: Int) {
        self.file = file
        self.fs = fs
        self.codec = codec
        self.path = path
        self.headerEnd = headerEnd
        self.end = end
        self.windowSize = windowSize
    }

    /// The item the record at `entry` puts, authenticated.
    /// - Parameter known: a service and its tag (a listing of one service), so the tag is not
    ///   derived again for every record of it.
    /// - Throws: `VaultError.integrity` (at the entry's offset) when the record is not there,
    ///   does not verify, or puts another item; `VaultError.io` when it cannot be read.
    mutating func item(at entry: VaultIndex.Entry, known: (service: String, tag: [UInt8])? = nil) throws -> VaultItem {
        let offset = entry.offset
        let frameHeader = UInt64(VaultFormat.frameHeaderLength)
        guard offset >= headerEnd, offset < end else { throw noRecord(offset) }
        // The chain link is the 16 bytes before the record (the file id before the first one).
        let chainStart = offset == headerEnd ? offset : offset - 16
        try load(from: chainStart, through: min(end, offset + frameHeader))
        var r = ByteReader(slice(offset, min(end, offset + frameHeader)).dropFirst(4))
        guard end - offset >= frameHeader, let length = r.uint32(), length <= VaultFormat.maxSealedLength else {
            throw noRecord(offset)
        }
        let recordEnd = min(end, offset + frameHeader + UInt64(length))
        try load(from: chainStart, through: recordEnd)
        let chain = offset == headerEnd ? codec.initialChain : Array(slice(chainStart, offset))
        let bytes = slice(offset, recordEnd)
        let outcome = try codec.open(bytes, offset: offset, sequence: entry.sequence, chain: chain, path: path)
        // `open` checked the frame's item tag against the item it puts; an index key is the
        // service tag and the first 12 bytes of that tag, so this is `indexKey(item.id)`.
        guard case .record(.put(let item), _, _) = outcome else { throw notTheItem(offset) }
        let tag = try known.flatMap { $0.service == item.service ? $0.tag : nil } ?? codec.serviceTag(item.service)
        guard tag + bytes.dropFirst(16).prefix(12) == entry.key else { throw notTheItem(offset) }
        return item
    }

    private func notTheItem(_ offset: UInt64) -> VaultError {
        VaultError.integrity(path: path, offset: offset, detail: "the record the index names is not the item's")
    }

    private func noRecord(_ offset: UInt64) -> VaultError {
        VaultError.integrity(path: path, offset: offset, detail: "the index names no record here")
    }

    /// The file's bytes `start..<end`, which the window holds.
    private func slice(_ start: UInt64, _ end: UInt64) -> ArraySlice<UInt8> {
        window[Int(start - windowStart)..<Int(end - windowStart)]
    }

    /// Makes the window hold `start..<end` (read from `start`, at least `windowSize` bytes
    /// when the file has them).
    private mutating func load(from start: UInt64, through end: UInt64) throws {
        if start >= windowStart, end <= windowStart + UInt64(window.count) { return }
        let readEnd = min(self.end, max(end, start + UInt64(windowSize)))
        window = try VaultStore.read(file, from: start, to: readEnd, fs: fs, path: path)
        windowStart = start
        guard UInt64(window.count) >= end - start else {
            throw VaultError.integrity(path: path, offset: start, detail: "the file ends inside a record the index names")
        }
    }
}
