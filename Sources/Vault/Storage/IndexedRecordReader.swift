import SystemIO

/// Reads the records index entries name (`VaultIndex.Entry`) and authenticates each one as
/// `VaultStore` always has: its frame check, its sequence number (the entry's), its chain link
/// (the tag of the record just before it), its AEAD tag, the item it is bound to, and that it
/// puts the item the entry's key names.
///
/// The file is read through one window: entries visited in file order cost one `pread` per
/// window (`windowSize`, 1 MiB for a listing) instead of three per record, so a listing reads
/// the record region sequentially in large pieces. Nothing read is kept beyond the window.
final class IndexedRecordReader {
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
    /// The file's bytes from `windowStart`, `windowCount` of them; the storage is reused from
    /// one read to the next (a fresh megabyte a read would be faulted in page by page).
    private var window: [UInt8] = []
    private var windowCount = 0
    private var windowStart: UInt64 = 0
    /// Where records are decrypted, reused from one record to the next.
    private var plaintext: [UInt8] = []

    init(
        file: OpenFile, fs: any FileSystem, codec: RecordCodec, path: String, headerEnd: UInt64, end: UInt64,
        windowSize: Int
    ) {
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
    func item(at entry: VaultIndex.Entry, known: (service: String, tag: [UInt8])? = nil) throws -> VaultItem {
        try withItem(at: entry, known: known) { $0.item }
    }

    /// Hands `body` a view of the item the record at `entry` puts, once the record is
    /// authenticated as `item(at:known:)` authenticates it; the view lasts for the call.
    /// - Throws: what `item(at:known:)` throws, or what `body` throws.
    func withItem<R>(
        at entry: VaultIndex.Entry, known: (service: String, tag: [UInt8])? = nil, _ body: (VaultItemView) throws -> R
    ) throws -> R {
        let offset = entry.offset
        let frameHeader = UInt64(VaultFormat.frameHeaderLength)
        guard offset >= headerEnd, offset < end else { throw noRecord(offset) }
        // The chain link is the 16 bytes before the record (the file id before the first one).
        let chainStart = offset == headerEnd ? offset : offset - 16
        try load(from: chainStart, through: min(end, offset + frameHeader))
        guard end - offset >= frameHeader else { throw noRecord(offset) }
        let lengthAt = Int(offset - windowStart) + 4
        let length =
            UInt32(window[lengthAt]) | UInt32(window[lengthAt + 1]) << 8 | UInt32(window[lengthAt + 2]) << 16
            | UInt32(window[lengthAt + 3]) << 24
        guard length <= VaultFormat.maxSealedLength else { throw noRecord(offset) }
        let recordEnd = min(end, offset + frameHeader + UInt64(length))
        try load(from: chainStart, through: recordEnd)
        let (start, chainAt, stop) = (
            Int(offset - windowStart), Int(chainStart - windowStart), Int(recordEnd - windowStart)
        )
        // The buffer is borrowed for the call (taken out, so the window can be read meanwhile).
        var plaintext: [UInt8] = []
        swap(&plaintext, &self.plaintext)
        defer { swap(&plaintext, &self.plaintext) }
        var window: [UInt8] = []
        swap(&window, &self.window)
        defer { swap(&window, &self.window) }
        let opened = try window.withUnsafeBytes { window in
            let record = UnsafeRawBufferPointer(rebasing: window[start..<stop])
            let frameTag = UnsafeRawBufferPointer(rebasing: window[(start + 16)..<(start + 28)])
            func open(_ chain: UnsafeRawBufferPointer) throws -> (R, length: Int)? {
                try codec.open(
                    record, offset: offset, sequence: entry.sequence, chain: chain, path: path, plaintext: &plaintext
                ) { layout in
                    // `open` checked the frame's item tag against the item it puts; an index key
                    // is the service tag and the first 12 bytes of that tag, so this is
                    // `indexKey(item.id)`.
                    guard case .put(let view) = layout else { throw notTheItem(offset) }
                    let tag =
                        try known.flatMap { view.isService($0.service) ? $0.tag : nil }
                        ?? codec.serviceTag(view.service)
                    guard Self.isKey(entry.key, tag, frameTag) else { throw notTheItem(offset) }
                    return try body(view)
                }
            }
            if chainAt == start { return try codec.initialChain.withUnsafeBytes { try open($0) } }
            return try open(UnsafeRawBufferPointer(rebasing: window[chainAt..<start]))
        }
        // A record cut short by the end of the verified records reads as torn: not the item's.
        guard let (result, _) = opened else { throw notTheItem(offset) }
        return result
    }

    /// Whether `key` is `serviceTag` followed by `itemTag` (an index key).
    private static func isKey(_ key: [UInt8], _ serviceTag: [UInt8], _ itemTag: UnsafeRawBufferPointer) -> Bool {
        guard key.count == serviceTag.count + itemTag.count else { return false }
        var difference: UInt8 = 0
        for index in serviceTag.indices { difference |= key[index] ^ serviceTag[index] }
        for index in itemTag.indices { difference |= key[serviceTag.count + index] ^ itemTag[index] }
        return difference == 0
    }

    private func notTheItem(_ offset: UInt64) -> VaultError {
        VaultError.integrity(path: path, offset: offset, detail: "the record the index names is not the item's")
    }

    private func noRecord(_ offset: UInt64) -> VaultError {
        VaultError.integrity(path: path, offset: offset, detail: "the index names no record here")
    }

    /// Makes the window hold `start..<end` (read from `start`, at least `windowSize` bytes
    /// when the file has them), into the storage it already has when that is large enough.
    private func load(from start: UInt64, through end: UInt64) throws {
        if start >= windowStart, end <= windowStart + UInt64(windowCount) { return }
        let count = Int(min(self.end, max(end, start + UInt64(windowSize))) - start)
        if window.count < count { window = [UInt8](repeating: 0, count: count) }
        windowStart = start
        windowCount = 0
        let (file, fs, path) = (file, fs, path)
        windowCount = try window.withUnsafeMutableBytes { buffer in
            do throws(SystemCallError) {
                return try fs.read(file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: start)
            } catch {
                throw VaultError.io(path: path, operation: error.operation, errno: error.code)
            }
        }
        guard UInt64(windowCount) >= end - start else {
            throw VaultError.integrity(
                path: path, offset: start, detail: "the file ends inside a record the index names")
        }
    }
}
