import Synchronization

/// An append-only list of server records with an index by what each is about, shared by every
/// copy of a `ServerRecords` value: each copy reads the first `count` records, the one the
/// store's actor holds appends, and readers on the server's HTTP threads read at the same time.
///
/// A position is written once: `append(_:at:)` takes the next position only, and a record
/// equal to the one already there (a draft applied it first) is the same record. So what a
/// copy sees never changes under it.
final class ServerRecordLog: Sendable {
    /// What a record is about: the key its lookups go by.
    enum Key: Hashable, Sendable {
        case consumption(String)
        case appAccountToken(String)
        case renewalExtension(String)
        case massExtension(productID: String, requestIdentifier: String)

        init?(_ record: ServerRecord) {
            if let c = record.consumption {
                self = .consumption(c.transactionID)
            } else if let t = record.appAccountToken {
                self = .appAccountToken(t.originalTransactionID)
            } else if let e = record.renewalExtension {
                self = .renewalExtension(e.originalTransactionID)
            } else if let m = record.massExtension {
                self = .massExtension(productID: m.productID, requestIdentifier: m.requestIdentifier)
            } else {
                return nil
            }
        }
    }

    private struct Contents {
        var records: [ServerRecord] = []
        /// The positions of each key's records, ascending.
        var positions: [Key: [Int]] = [:]

        mutating func append(_ record: ServerRecord) {
            if let key = Key(record) { positions[key, default: []].append(records.count) }
            records.append(record)
        }
    }

    private let contents: Mutex<Contents>

    init() { contents = Mutex(Contents()) }

    private init(_ contents: Contents) { self.contents = Mutex(contents) }

    /// Puts `record` at `position` when that is the next one (or it is there already).
    /// - Returns: false when another record holds `position`: the caller needs a log of its own.
    func append(_ record: ServerRecord, at position: Int) -> Bool {
        contents.withLock { contents in
            if position == contents.records.count {
                contents.append(record)
                return true
            }
            return position < contents.records.count && contents.records[position] == record
        }
    }

    /// A new log holding this one's first `count` records.
    func prefix(_ count: Int) -> ServerRecordLog {
        var copy = Contents()
        forEach(below: count) { copy.append($0) }
        return ServerRecordLog(copy)
    }

    /// Calls `body` with each of the first `count` records, oldest first. (Under the lock: a
    /// slice handed out would share the array, and the next append would copy all of it.)
    func forEach(below count: Int, _ body: (ServerRecord) -> Void) {
        contents.withLock { contents in
            for record in contents.records[..<min(count, contents.records.count)] { body(record) }
        }
    }

    /// The records about `key` among the first `count`, oldest first.
    func records(for key: Key, below count: Int) -> [ServerRecord] {
        contents.withLock { contents in
            guard let positions = contents.positions[key] else { return [] }
            return positions.prefix { $0 < count }.map { contents.records[$0] }
        }
    }
}
