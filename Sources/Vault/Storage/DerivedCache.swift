import Crypto
import SystemIO

/// A derived cache beside the vault (`NAME.derived-DERIVATION`, Docs/formats/vault.md,
/// "Derived caches"): for the items of one service whose latest records lie before a point of
/// the log, the bytes a `VaultDerivation` derived from each record, so that a listing needing
/// only those reads them here instead of the records.
///
/// It is a cache, like the index: sealed (it holds what the records hold), written without
/// fsync, never required. It names the point it covers (`coveredEnd` and the tag of the
/// record ending there) and each entry names its record by index key, offset and sequence
/// number. An entry is used only for a record an index entry names with all three, before that
/// point, in a file whose bytes just before the point are that tag: the same prefix of the
/// same file, so the same record. A cache that is missing, torn, altered, for another file,
/// key, derivation or version is ignored; an entry it lacks is read from the vault.
struct DerivedCache {
    static let magic: [UInt8] = Array("SFVDRV\0\u{1}".utf8)
    static let version: UInt16 = 1
    static let fixedHeaderLength = 78
    /// key 16 ‖ offset 8 ‖ sequence 8 ‖ length 4, then the derived bytes.
    static let entryHeaderLength = 36
    /// Larger files are not read (a cache is a few dozen bytes an item).
    static let maximumLength = 1 << 30

    /// The file offset just past the last record the cache covers.
    let coveredEnd: UInt64
    /// The file's bytes, its entries decrypted in place (end to end, in increasing offset).
    private let storage: [UInt8]
    /// Where each entry starts in `storage`.
    private let starts: [Int]

    var count: Int { starts.count }

    /// The file's name beside the vault at `vaultPath`.
    static func path(_ vaultPath: String, _ derivation: VaultDerivation) -> String {
        vaultPath + ".derived-" + derivation.name
    }

    // MARK: - Reading

    /// The cache for `derivation` beside the vault, when it is this file's, authentic, and
    /// covers a prefix of the file as it is; `nil` otherwise.
    /// - Parameters:
    ///   - validEnd: where the file's verified records end (a cache must not cover more).
    ///   - chain: the 16 bytes of the vault file ending at an offset (the file id at the first
    ///     record's start): what a cache's `coveredEnd` is checked against.
    static func open(
        _ path: String, derivation: VaultDerivation, codec: RecordCodec, fs: any FileSystem, headerEnd: UInt64,
        validEnd: UInt64,
        chain: (UInt64) throws -> [UInt8]
    ) -> DerivedCache? {
        guard let status = try? fs.status(atPath: path, followingLinks: false), status.isRegularFile,
            status.owner == fs.currentUser(), status.size >= UInt64(fixedHeaderLength),
            status.size <= UInt64(maximumLength),
            let file = try? fs.open(path, [.read, .noFollow], mode: 0)
        else { return nil }
        defer { fs.close(file) }
        guard var bytes = try? fs.read(file, count: Int(status.size), at: 0), bytes.count == Int(status.size) else {
            return nil
        }
        return parse(
            &bytes, derivation: derivation, codec: codec, headerEnd: headerEnd, validEnd: validEnd, chain: chain)
    }

    /// The cache in `bytes` (a whole file), decrypted in place.
    private static func parse(
        _ bytes: inout [UInt8], derivation: VaultDerivation, codec: RecordCodec, headerEnd: UInt64, validEnd: UInt64,
        chain: (UInt64) throws -> [UInt8]
    ) -> DerivedCache? {
        guard Array(bytes[0..<8]) == magic else { return nil }
        var r = ByteReader(bytes[8..<fixedHeaderLength])
        guard let version = r.uint16(), version == Self.version, r.take(2) != nil, let derived = r.uint32(),
            derived == derivation.version, let fileID = r.take(16), Array(fileID) == codec.fileID,
            let coveredEnd = r.uint64(),
            let tag = r.take(16), let count = r.uint64(), let nonce = r.take(12).map(Array.init),
            let nameLength = r.uint16(),
            coveredEnd >= headerEnd, coveredEnd <= validEnd, count <= UInt64(bytes.count / entryHeaderLength)
        else { return nil }
        let name = Array(derivation.name.utf8)
        let headEnd = fixedHeaderLength + Int(nameLength)
        guard Int(nameLength) == name.count, bytes.count >= headEnd + AEAD.tagByteCount,
            Array(bytes[fixedHeaderLength..<headEnd]) == name
        else { return nil }
        // The same prefix of the same file: the record ending at `coveredEnd` is the one the
        // cache was made from (its tag, which chains every record before it).
        guard let current = try? chain(coveredEnd), current.elementsEqual(tag) else { return nil }
        let end = bytes.count - AEAD.tagByteCount
        // In place: the buffer is this call's own, and wiped where it does not open.
        let opened = bytes.withUnsafeMutableBytes { all in
            (try? nonce.withUnsafeBytes { nonce in
                try codec.derivedCacheKey.open(
                    nonce: nonce, sealed: UnsafeRawBufferPointer(rebasing: all[headEnd...]),
                    associatedData: UnsafeRawBufferPointer(rebasing: all[..<headEnd]),
                    into: UnsafeMutableRawBufferPointer(rebasing: all[headEnd..<end]))
            }) ?? false
        }
        guard opened,
            let starts = entryStarts(
                bytes, from: headEnd, to: end, count: Int(count), headerEnd: headerEnd, coveredEnd: coveredEnd)
        else { return nil }
        return DerivedCache(coveredEnd: coveredEnd, storage: bytes, starts: starts)
    }

    /// Where each of `count` entries starts, when they fill `bytes[start..<end]` exactly, lie
    /// in order and each names a record inside the covered part of the file.
    private static func entryStarts(
        _ bytes: [UInt8], from start: Int, to end: Int, count: Int, headerEnd: UInt64, coveredEnd: UInt64
    ) -> [Int]? {
        var starts: [Int] = []
        starts.reserveCapacity(count)
        var position = start
        var previous: UInt64?
        for _ in 0..<count {
            guard end - position >= entryHeaderLength else { return nil }
            let offset = load(UInt64.self, bytes, position + 16)
            let length = Int(load(UInt32.self, bytes, position + 32))
            guard offset >= headerEnd, offset < coveredEnd, previous.map({ $0 < offset }) ?? true,
                end - position - entryHeaderLength >= length
            else { return nil }
            starts.append(position)
            previous = offset
            position += entryHeaderLength + length
        }
        return position == end ? starts : nil
    }

    private static func load<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], _ at: Int) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: T.self)) }
    }

    // MARK: - Looking up

    /// The record offset entry `index` names.
    func offset(_ index: Int) -> UInt64 { Self.load(UInt64.self, storage, starts[index] + 16) }

    /// Hands `use` the bytes entry `index` keeps when it names `entry` (its key, offset and
    /// sequence number), with the entry's whole encoding; else returns `false`.
    func withEntry(
        _ index: Int, naming entry: VaultIndex.Entry,
        _ use: (_ derived: UnsafeRawBufferPointer, _ encoded: UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> Bool {
        let start = starts[index]
        return try storage.withUnsafeBytes { all in
            guard entry.key.count == 16,
                all.loadUnaligned(fromByteOffset: start + 16, as: UInt64.self) == entry.offset.littleEndian,
                all.loadUnaligned(fromByteOffset: start + 24, as: UInt64.self) == entry.sequence.littleEndian,
                entry.key.withUnsafeBytes({ key in
                    key.loadUnaligned(as: UInt64.self) == all.loadUnaligned(fromByteOffset: start, as: UInt64.self)
                        && key.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                            == all.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)
                })
            else { return false }
            let length = Int(UInt32(littleEndian: all.loadUnaligned(fromByteOffset: start + 32, as: UInt32.self)))
            let end = start + Self.entryHeaderLength + length
            try use(
                UnsafeRawBufferPointer(rebasing: all[(start + Self.entryHeaderLength)..<end]),
                UnsafeRawBufferPointer(rebasing: all[start..<end]))
            return true
        }
    }

    // MARK: - Writing

    /// A cache's entries as they are gathered, in increasing offset.
    struct Builder {
        private(set) var body: [UInt8] = []
        private(set) var count = 0

        init(capacity: Int) { body.reserveCapacity(capacity) }

        /// Adds the entry for the record `entry` names, with the bytes derived from it.
        mutating func append(_ entry: VaultIndex.Entry, derived: UnsafeRawBufferPointer) {
            body += entry.key
            Self.append(entry.offset, to: &body)
            Self.append(entry.sequence, to: &body)
            Self.append(UInt32(derived.count), to: &body)
            body += derived
            count += 1
        }

        /// Adds an entry as `withEntry` handed it over (its whole encoding).
        mutating func append(encoded: UnsafeRawBufferPointer) {
            body += encoded
            count += 1
        }

        private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
    }

    /// Writes the cache of `builder`'s entries, covering the file up to `coveredEnd` (whose
    /// record's tag is `chain`), through a private temporary renamed into place, unsynced.
    /// - Throws: `SystemCallError` or `CryptoError` when it cannot be made (the caller may
    ///   ignore it: a cache is never required).
    static func write(
        _ builder: Builder, to path: String, derivation: VaultDerivation, coveredEnd: UInt64, chain: [UInt8],
        codec: RecordCodec,
        fs: any FileSystem, temporarySuffix: String
    ) throws {
        let nonce = try SecureRandom.bytes(count: AEAD.nonceByteCount)
        var w = ByteWriter(
            capacity: fixedHeaderLength + derivation.name.utf8.count + builder.body.count + AEAD.tagByteCount)
        w.append(magic)
        w.uint16(version)
        w.uint16(0)
        w.uint32(derivation.version)
        w.append(codec.fileID)
        w.uint64(coveredEnd)
        w.append(chain)
        w.uint64(UInt64(builder.count))
        w.append(nonce)
        w.uint16(UInt16(derivation.name.utf8.count))
        w.append(Array(derivation.name.utf8))
        let sealed = try builder.body.withUnsafeBytes { body in
            try w.bytes.withUnsafeBytes {
                try codec.derivedCacheKey.seal(nonce: nonce, plaintext: body, associatedData: $0)
            }
        }
        w.append(sealed)
        try fs.replaceAtomically(
            path, with: w.bytes, temporaryPath: path + ".tmp-" + temporarySuffix, fileSync: nil, syncsDirectory: false)
    }
}
