import Foundation
import StoreCore

/// The finished entries a compaction moved out of the journal (`history.dat`, one frame per
/// entry version, append-only, `SFJHIST\0` version 1), found through the runs of its index
/// the journal names (`history-GENERATION.idx`): a `FrameArchive` of `QueueEntry`s keyed by
/// transaction ID.
typealias JournalHistory = FrameArchive<HistoryLayout>

/// The history's frames and tables: `entries` by transaction ID (info: `HistoryFlags`),
/// `requests` (`HistoryIndex.hash(requestID)` → transaction ID, restored copies left out),
/// `grants` (`JournalState.grantKey` → transaction ID) and `finished` (account hash → the
/// change a run's frames make to the digest of its purchased and restored transactions).
enum HistoryLayout: ArchiveLayout {
    static let magic: [UInt8] = Array("SFJHIST\0".utf8) + [1, 0, 0, 0, 0, 0, 0, 0]

    static func key(of entry: QueueEntry) -> UInt64? { UInt64(entry.id) }

    static func flags(of entry: QueueEntry) -> UInt64 { HistoryFlags(entry).productType.rawValue }

    static let tableKinds: [IndexTableKind] = [.pairs, .pairs, .sums]

    static func tables(adding moved: [ArchiveFrame<QueueEntry>]) -> [[HistoryIndex.Entry]] {
        var requests: [HistoryIndex.Entry] = []
        var grants: [HistoryIndex.Entry] = []
        var finished: [UInt64: TransactionDigest] = [:]
        for frame in moved {
            let entry = frame.item
            let transaction = entry.transaction
            let id = frame.entry.key
            if transaction.state != .restored {
                requests.append(HistoryIndex.Entry(key: HistoryIndex.hash(transaction.payment.requestID), value: id))
            }
            grants.append(
                HistoryIndex.Entry(
                    key: JournalState.grantKey(accountID: entry.accountID, transaction: transaction), value: id))
            // The finished digests' change: the version this frame replaces leaves, this one comes in.
            if let previous = frame.previous, JournalHistory.countsAsFinished(previous) {
                finished[HistoryIndex.hash(previous.accountID), default: TransactionDigest()].remove(previous.id)
            }
            if JournalHistory.countsAsFinished(entry) {
                finished[HistoryIndex.hash(entry.accountID), default: TransactionDigest()].insert(entry.id)
            }
        }
        // Each account's change, as a two's complement count and a sum; one that changes
        // nothing is left out.
        let finishedTable = finished.sorted { $0.key < $1.key }.compactMap { key, change -> HistoryIndex.Entry? in
            change.count == 0 && change.sum == 0
                ? nil : HistoryIndex.Entry(key: key, value: UInt64(bitPattern: Int64(change.count)), info: change.sum)
        }
        return [HistoryIndex.merging([], requests), HistoryIndex.merging([], grants), finishedTable]
    }
}

extension HistoryIndex.Table {
    /// The history's `HistoryIndex.hash(requestID)` → transaction ID pairs.
    static let requests = Self(rawValue: 1)
    /// The history's grant key → transaction ID pairs.
    static let grants = Self(rawValue: 2)
    /// The history's account hash → finished digest (value: count, info: sum).
    static let finished = Self(rawValue: 3)
}

/// What the history's index says about a transaction, so scans need not decode the others.
struct HistoryFlags: Hashable {
    var productType: ProductTypeCode

    /// Whether a restore of `scope` brings the entry back, by its product type alone.
    func restorable(in scope: RestoreScope) -> Bool { type.map(scope.includes) ?? false }

    /// The product type the code names; nil for one coded as other.
    var type: ProductType? {
        switch productType {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewable: .autoRenewable
        case .nonRenewing: .nonRenewing
        case .other: nil
        }
    }

    enum ProductTypeCode: UInt64 {
        case other = 0
        case consumable, nonConsumable, autoRenewable, nonRenewing
    }

    init(_ entry: QueueEntry) {
        productType =
            switch entry.transaction.productType {
            case .consumable: .consumable
            case .nonConsumable: .nonConsumable
            case .autoRenewable: .autoRenewable
            case .nonRenewing: .nonRenewing
            default: .other
            }
    }

    init(flags: UInt64) {
        productType = ProductTypeCode(rawValue: flags & 7) ?? .other
    }
}

extension FrameArchive where Layout == HistoryLayout {
    /// The transaction `id`'s latest compacted version.
    func entry(id: String) -> QueueEntry? {
        UInt64(id).flatMap { item(key: $0) }
    }

    /// The transaction a payment made (restored copies left out), by its request ID.
    func entry(requestID: String) -> QueueEntry? {
        items(.requests, key: HistoryIndex.hash(requestID)).first {
            $0.transaction.payment.requestID == requestID && $0.transaction.state != .restored
        }
    }

    /// The compacted transactions whose grant key is `key` (`JournalState.grantKey`).
    func entries(grantKey key: UInt64) -> [QueueEntry] {
        items(.grants, key: key)
    }

    /// Every compacted entry whose flags pass `filter`, by transaction ID.
    func entries(where filter: (HistoryFlags) -> Bool = { _ in true }) -> [QueueEntry] {
        items { filter(HistoryFlags(flags: $0)) }
    }

    /// The compacted transaction ID at `rank` (0-based, in ID order).
    func identifier(at rank: Int) -> UInt64? { key(at: rank) }

    /// Every transaction ID the index holds, in order.
    func identifiers() -> [UInt64] { keys() }

    /// The digest of the account's compacted purchased and restored transactions (all of them
    /// are finished): one entry of each run's `finished` table, added up.
    func finishedDigest(accountID: String) -> TransactionDigest {
        lookUp { () throws -> TransactionDigest in
            let total = try index.total(.finished, key: HistoryIndex.hash(accountID))
            return TransactionDigest(count: total.count, sum: total.info)
        } ?? TransactionDigest()
    }

    /// Whether `entry` counts in its account's finished digest (`LocalAppStore.finishedTransactions()`'s
    /// rule: finished, purchased or restored).
    static func countsAsFinished(_ entry: QueueEntry) -> Bool {
        entry.finished && (entry.transaction.state == .purchased || entry.transaction.state == .restored)
    }
}
