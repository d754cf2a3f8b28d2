import Crypto
import Foundation
import StoreCore
import SystemIO

/// The finished entries a compaction moved out of the journal (`history.dat`, one frame per
/// entry version, append-only), found through one generation's index (`HistoryIndex`). An
/// entry is read and decoded when asked for, then kept.
///
/// `history.dat`: a 16-byte header (`SFJHIST\0`, version 1), then frames: payload length
/// (UInt32), the first 8 bytes of the payload's SHA-256, the payload (the `QueueEntry` as
/// JSON). A frame is checked when read; one that fails is a clear error, never wrong data.
///
/// Lookups do not throw, so that the journal's rules read it as they read the journal's own
/// entries: a failure is kept in `failure`, and the journal refuses to act on a draft that
/// met one (`StoreJournal.transact`) or to answer from it (`StoreJournal.checked`).
final class JournalHistory: @unchecked Sendable {
    static let magic: [UInt8] = Array("SFJHIST\0".utf8) + [1, 0, 0, 0, 0, 0, 0, 0]
    static let headerLength = 16

    /// What an index entry says about its transaction, so scans need not decode the others.
    struct Flags: Hashable {
        var productType: ProductTypeCode
        var restorable: Bool { productType == .nonConsumable || productType == .autoRenewable || productType == .nonRenewing }

        enum ProductTypeCode: UInt64 {
            case other = 0, consumable, nonConsumable, autoRenewable, nonRenewing
        }

        init(_ entry: QueueEntry) {
            productType = switch entry.transaction.productType {
            case .consumable: .consumable
            case .nonConsumable: .nonConsumable
            case .autoRenewable: .autoRenewable
            case .nonRenewing: .nonRenewing
            default: .other
            }
        }

        init(info: UInt64) {
            productType = ProductTypeCode(rawValue: info >> 32 & 7) ?? .other
        }

        func info(length: Int) -> UInt64 { productType.rawValue << 32 | UInt64(UInt32(clamping: length)) }
    }

    let generation: UInt64
    /// The bytes of `history.dat` this generation reads.
    var historyEnd: UInt64 { index.historyEnd }
    let dataPath: String
    private let fs: any FileSystem
    private let data: OpenFile
    /// The index; replaced by one made again from `history.dat` when a page fails its check.
    private(set) var index: HistoryIndex
    private let lock = NSLock()
    private var decoded: [UInt64: QueueEntry] = [:]
    private var firstFailure: LocalAppStoreError?

    /// The first failure a lookup met (nil: none).
    var failure: LocalAppStoreError? { lock.withLock { firstFailure } }

    /// Entries the index holds.
    var count: Int { index.count(.entries) }

    init(generation: UInt64, dataPath: String, data: OpenFile, index: HistoryIndex, fs: any FileSystem) {
        self.generation = generation
        self.dataPath = dataPath
        self.data = data
        self.index = index
        self.fs = fs
    }

    deinit { fs.close(data) }

    /// The transaction `id`'s latest compacted version.
    func entry(id: String) -> QueueEntry? {
        guard let number = UInt64(id) else { return nil }
        return lookUp { () throws -> QueueEntry? in
            try index.entries(.entries, key: number).first.map { try frame($0) }
        } ?? nil
    }

    /// The transaction a payment made (restored copies left out), by its request ID.
    func entry(requestID: String) -> QueueEntry? {
        lookUp { () throws -> QueueEntry? in
            for candidate in try index.entries(.requests, key: HistoryIndex.hash(requestID)) {
                if let entry = try entry(number: candidate.value), entry.transaction.payment.requestID == requestID,
                    entry.transaction.state != .restored {
                    return entry
                }
            }
            return nil
        } ?? nil
    }

    /// The compacted transactions whose grant key is `key` (`JournalState.grantKey`).
    func entries(grantKey key: UInt64) -> [QueueEntry] {
        lookUp { try index.entries(.grants, key: key).compactMap { try entry(number: $0.value) } } ?? []
    }

    /// Every compacted entry whose flags pass `filter`, by transaction ID.
    func entries(where filter: (Flags) -> Bool = { _ in true }) -> [QueueEntry] {
        lookUp { try index.allEntries(.entries).filter { filter(Flags(info: $0.info)) }.map(frame) } ?? []
    }

    /// How many compacted transactions have an ID below `id`.
    func rank(of id: UInt64) -> Int {
        lookUp { try index.rank(.entries, of: id) } ?? 0
    }

    /// The compacted transaction ID at `rank` (0-based, in ID order).
    func identifier(at rank: Int) -> UInt64? {
        lookUp { try index.entry(.entries, at: rank)?.key } ?? nil
    }

    /// The index's four tables whole (what the next compaction's index starts from); `nil`
    /// when they cannot be read (`failure` says why).
    func indexTables() -> (
        entries: [HistoryIndex.Entry], requests: [HistoryIndex.Entry], grants: [HistoryIndex.Entry], finished: [HistoryIndex.Entry]
    )? {
        lookUp {
            (try index.allEntries(.entries), try index.allEntries(.requests), try index.allEntries(.grants), try index.allEntries(.finished))
        }
    }

    /// The digest of the account's compacted purchased and restored transactions (all of them
    /// are finished): one entry of the `finished` table.
    func finishedDigest(accountID: String) -> TransactionDigest {
        lookUp { () throws -> TransactionDigest in
            guard let entry = try index.entries(.finished, key: HistoryIndex.hash(accountID)).first else { return TransactionDigest() }
            return TransactionDigest(count: Int(entry.value), sum: entry.info)
        } ?? TransactionDigest()
    }

    /// Whether `entry` counts in its account's finished digest (`LocalAppStore.finishedTransactions()`'s
    /// rule: finished, purchased or restored).
    static func countsAsFinished(_ entry: QueueEntry) -> Bool {
        entry.finished && (entry.transaction.state == .purchased || entry.transaction.state == .restored)
    }

    /// The `finished` table for digests by account hash.
    static func finishedTable(_ digests: [UInt64: TransactionDigest]) -> [HistoryIndex.Entry] {
        digests.filter { $0.value.count != 0 }.keys.sorted().map { key in
            HistoryIndex.Entry(key: key, value: UInt64(max(0, digests[key, default: TransactionDigest()].count)), info: digests[key, default: TransactionDigest()].sum)
        }
    }

    /// Every transaction ID the index holds, in order.
    func identifiers() -> [UInt64] {
        lookUp { try index.allEntries(.entries).map(\.key) } ?? []
    }

    /// The entries of the frames from byte `start` to the history's end, in file order (what
    /// the compactions after the one that ended at `start` moved here).
    /// - Throws: `LocalAppStoreError.corrupt` naming a frame that fails its check.
    func frames(from start: UInt64) throws -> [QueueEntry] {
        guard start < historyEnd else { return [] }
        let bytes = try fs.read(data, count: Int(historyEnd - start), at: start)
        guard bytes.count == Int(historyEnd - start) else {
            throw LocalAppStoreError.corrupt(path: dataPath, line: 0, reason: "the history is shorter than the journal says")
        }
        var found: [QueueEntry] = []
        var position = 0
        while position < bytes.count {
            let (entry, length) = try Self.decodeFrame(bytes, from: position, at: start + UInt64(position), path: dataPath)
            found.append(entry)
            position += length
        }
        return found
    }

    private func entry(number: UInt64) throws -> QueueEntry? {
        try index.entries(.entries, key: number).first.map { try frame($0) }
    }

    private func lookUp<T>(_ body: () throws -> T) -> T? {
        do {
            do {
                return try body()
            } catch is HistoryIndex.Damaged {
                // The index is only derived from `history.dat`: make it again, once.
                try Self.rebuildIndex(
                    generation: generation, historyEnd: index.historyEnd, data: data, dataPath: dataPath, indexPath: index.path, fs: fs)
                let rebuilt = try HistoryIndex.open(index.path, generation: generation, fs: fs)
                lock.withLock { index = rebuilt }
                return try body()
            }
        } catch let error as LocalAppStoreError {
            lock.withLock { if firstFailure == nil { firstFailure = error } }
        } catch let error as HistoryIndex.Damaged {
            lock.withLock { if firstFailure == nil { firstFailure = .corrupt(path: index.path, line: 0, reason: error.detail) } }
        } catch let error as SystemCallError {
            lock.withLock { if firstFailure == nil { firstFailure = .io(path: error.path, reason: "\(error.operation) failed: \(error.errno)") } }
        } catch {
            lock.withLock { if firstFailure == nil { firstFailure = .io(path: dataPath, reason: "\(error)") } }
        }
        return nil
    }

    /// Reads, checks and decodes the frame an index entry names.
    private func frame(_ entry: HistoryIndex.Entry) throws -> QueueEntry {
        if let hit = lock.withLock({ decoded[entry.key] }) { return hit }
        let length = Int(UInt32(truncatingIfNeeded: entry.info))
        guard entry.value >= UInt64(Self.headerLength), entry.value + 12 + UInt64(length) <= historyEnd else {
            throw LocalAppStoreError.corrupt(path: dataPath, line: 0, reason: "the index names bytes \(entry.value)… outside the history")
        }
        let bytes = try fs.read(data, count: 12 + length, at: entry.value)
        let read = try Self.decodeFrame(bytes, from: 0, at: entry.value, path: dataPath)
        guard read.entry.id == String(entry.key), read.length == 12 + length else {
            throw LocalAppStoreError.corrupt(path: dataPath, line: 0, reason: "the frame at byte \(entry.value) is not transaction \(entry.key)'s")
        }
        lock.withLock { decoded[entry.key] = read.entry }
        return read.entry
    }

    // MARK: - Making the index again

    /// Makes generation `generation`'s index at `indexPath` from `history.dat`'s frames (the
    /// last frame of an entry wins): what a lost or damaged index costs, once.
    static func rebuildIndex(
        generation: UInt64, historyEnd: UInt64, data: OpenFile, dataPath: String, indexPath: String, fs: any FileSystem
    ) throws {
        let bytes = try fs.read(data, count: Int(historyEnd), at: 0)
        guard bytes.count == Int(historyEnd), Array(bytes.prefix(headerLength)) == magic else {
            throw LocalAppStoreError.corrupt(path: dataPath, line: 0, reason: "the history is shorter than the journal says, or not a history")
        }
        var entries: [UInt64: HistoryIndex.Entry] = [:]
        var requests: [UInt64: [UInt64: Void]] = [:]
        var grants: [UInt64: [UInt64: Void]] = [:]
        var counting: [UInt64: (account: UInt64, id: String)] = [:]
        var position = headerLength
        while position < bytes.count {
            let (entry, length) = try decodeFrame(bytes, from: position, at: UInt64(position), path: dataPath)
            guard let id = UInt64(entry.id) else {
                throw LocalAppStoreError.corrupt(path: dataPath, line: 0, reason: "the frame at byte \(position) has no numeric transaction ID")
            }
            entries[id] = HistoryIndex.Entry(key: id, value: UInt64(position), info: Flags(entry).info(length: length - 12))
            if entry.transaction.state != .restored { requests[HistoryIndex.hash(entry.transaction.payment.requestID), default: [:]][id] = () }
            grants[JournalState.grantKey(accountID: entry.accountID, transaction: entry.transaction), default: [:]][id] = ()
            counting[id] = countsAsFinished(entry) ? (HistoryIndex.hash(entry.accountID), entry.id) : nil
            position += length
        }
        var digests: [UInt64: TransactionDigest] = [:]
        for (account, id) in counting.values { digests[account, default: TransactionDigest()].insert(id) }
        try HistoryIndex.write(
            [entries.values.sorted { $0.key < $1.key }, HistoryIndex.pairs(requests), HistoryIndex.pairs(grants), finishedTable(digests)],
            generation: generation, historyEnd: historyEnd, to: indexPath, fs: fs,
            temporarySuffix: "\(ProcessInfo.processInfo.processIdentifier)-rebuild")
    }

    // MARK: - Frames

    /// A frame's bytes for `entry`.
    static func encodeFrame(_ entry: QueueEntry, encoder: JSONEncoder) throws -> [UInt8] {
        let payload = Array(try encoder.encode(entry))
        var w = HistoryIndex.Writer()
        w.uint32(UInt32(payload.count))
        w.append(Array(try Digest.hash(.sha256, payload).prefix(8)))
        w.append(payload)
        return w.bytes
    }

    /// Decodes the frame that starts at `bytes[position]` (found at byte `offset` of the file).
    /// - Returns: the entry and the frame's length.
    /// - Throws: `LocalAppStoreError.corrupt` when the frame is cut short, fails its check or
    ///   holds no entry.
    static func decodeFrame(_ bytes: [UInt8], from position: Int, at offset: UInt64, path: String) throws -> (entry: QueueEntry, length: Int) {
        guard bytes.count - position >= 12 else {
            throw LocalAppStoreError.corrupt(path: path, line: 0, reason: "the frame at byte \(offset) is cut short")
        }
        var r = HistoryIndex.Reader(bytes, at: position)
        let length = Int(r.uint32())
        guard bytes.count - position - 12 >= length else {
            throw LocalAppStoreError.corrupt(path: path, line: 0, reason: "the frame at byte \(offset) is cut short")
        }
        let payload = bytes[(position + 12)..<(position + 12 + length)]
        guard try Digest.hash(.sha256, Array(payload)).prefix(8).elementsEqual(bytes[(position + 4)..<(position + 12)]) else {
            throw LocalAppStoreError.corrupt(path: path, line: 0, reason: "the frame at byte \(offset) fails its check")
        }
        do {
            return (try JSONDecoder().decode(QueueEntry.self, from: Data(payload)), 12 + length)
        } catch {
            throw LocalAppStoreError.corrupt(path: path, line: 0, reason: "the frame at byte \(offset) is not an entry (\(error))")
        }
    }
}
