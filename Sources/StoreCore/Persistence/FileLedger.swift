import Foundation
import Synchronization
package import SystemIO

/// A purchase ledger in one append-only file of JSON lines, shared safely by several processes.
///
/// Each change is one line, appended under an exclusive `flock` and made durable with `fsync`
/// before the call returns, so one write costs the same whatever the history's length. Every
/// call first reads the lines other processes appended since. A last line without its newline
/// is a write torn by a crash: it is ignored, and cut off by the next writer.
public final class FileLedger: PurchaseLedger {
    private enum Entry: Codable {
        case record(Transaction)
        case update(Transaction)
        case consume(productID: String, quantity: Int)
        case unverified(UnverifiedOrder)
        case verified(transactionID: String)
        case remove(transactionID: String)
        case removeAll
    }

    private struct Index {
        var offset: Int = 0
        var transactions: [Transaction] = []
        var positions: [String: Int] = [:]
        var balances: [String: Int] = [:]
        /// The units each consumable transaction added to its balance when it was recorded.
        var counted: [String: Int] = [:]
        var unverified: [String: UnverifiedOrder] = [:]
        var unverifiedOrder: [String] = []

        mutating func apply(_ entry: Entry) {
            switch entry {
            case .record(let t):
                guard positions[t.transactionID] == nil else { return }
                positions[t.transactionID] = transactions.count
                transactions.append(t)
                if t.productType == .consumable, t.revocationDate == nil {
                    balances[t.productID, default: 0] += t.quantity
                    counted[t.transactionID] = t.quantity
                }
            case .update(let t):
                guard let position = positions[t.transactionID] else { return }
                transactions[position] = t
            case .consume(let productID, let quantity):
                balances[productID, default: 0] -= quantity
            case .unverified(let order):
                let id = order.transaction.transactionID
                if unverified.updateValue(order, forKey: id) == nil { unverifiedOrder.append(id) }
            case .verified(let id):
                if unverified.removeValue(forKey: id) != nil { unverifiedOrder.removeAll { $0 == id } }
            case .remove(let id):
                guard let position = positions.removeValue(forKey: id) else { return }
                let removed = transactions.remove(at: position)
                for later in transactions[position...] { positions[later.transactionID, default: 0] -= 1 }
                if let units = counted.removeValue(forKey: id) {
                    balances[removed.productID] = max(0, (balances[removed.productID] ?? 0) - units)
                }
            case .removeAll:
                transactions.removeAll()
                positions.removeAll()
                balances.removeAll()
                counted.removeAll()
            }
        }
    }

    /// The ledger file's path.
    public let path: String
    private let fs: any FileSystem
    private let file: OpenFile
    private let index = Mutex(Index())
    private let faultHook: FaultHook
    private let syncs = Atomic<Int>(0)

    /// How many `fsync` calls this ledger has made (for benchmarks).
    public var fsyncCount: Int { syncs.load(ordering: .relaxed) }

    private let syncsWrites: Bool

    /// Opens (creating with mode 0600) the ledger at `path`.
    /// - Parameters:
    ///   - path: the ledger's file.
    ///   - faultHook: the engine's fault hook (`FaultPoint`); a file ledger reaches no fault point of its own.
    ///   - syncsWrites: `fsync` every write (keep `true` outside benchmark seeding).
    /// - Throws: `LedgerError.io` when the file cannot be opened.
    public convenience init(
        path: String, faultHook: @escaping FaultHook = { _ in }, syncsWrites: Bool = true
    ) throws(LedgerError) {
        try self.init(path: path, faultHook: faultHook, syncsWrites: syncsWrites, fileSystem: POSIXFileSystem())
    }

    /// Opens the ledger at `path` through `fileSystem` (tests wrap it to make a call fail).
    package init(
        path: String, faultHook: @escaping FaultHook = { _ in }, syncsWrites: Bool = true, fileSystem: any FileSystem
    ) throws(LedgerError) {
        self.path = path
        self.faultHook = faultHook
        self.syncsWrites = syncsWrites
        self.fs = fileSystem
        do {
            file = try fileSystem.open(path, [.readWrite, .create, .noFollow], mode: 0o600)
        } catch {
            throw .io(path: path, reason: error.errno.description)
        }
        try index.withLock { index throws(LedgerError) in try self.readNewLines(into: &index, truncateTornTail: false) }
    }

    deinit { fs.close(file) }

    public func record(_ transaction: Transaction) throws(LedgerError) -> Bool {
        try write { index in
            guard index.positions[transaction.transactionID] == nil else { return nil }
            return .record(transaction)
        } != nil
    }

    public func contains(transactionID: String) throws(LedgerError) -> Bool {
        try read { $0.positions[transactionID] != nil }
    }

    public func transaction(withID transactionID: String) throws(LedgerError) -> Transaction? {
        try read { index in index.positions[transactionID].map { index.transactions[$0] } }
    }

    public func update(_ transaction: Transaction) throws(LedgerError) {
        _ = try write { $0.positions[transaction.transactionID] == nil ? nil : .update(transaction) }
    }

    public func transactions() throws(LedgerError) -> [Transaction] { try read { $0.transactions } }

    /// Every transaction but the consumables (which never grant an entitlement), so a history
    /// of consumables does not make entitlements and statuses cost more.
    public func entitlementTransactions() throws(LedgerError) -> [Transaction] {
        try read { $0.transactions.filter { $0.productType != .consumable } }
    }

    public func balance(of productID: String) throws(LedgerError) -> Int { try read { $0.balances[productID] ?? 0 } }

    public func balances() throws(LedgerError) -> [String: Int] { try read { $0.balances.filter { $0.value != 0 } } }

    public func consume(productID: String, quantity: Int) throws(LedgerError) -> Int {
        var left = 0
        _ = try write { index throws(LedgerError) in
            let balance = index.balances[productID] ?? 0
            guard quantity > 0, balance >= quantity else {
                throw .insufficientBalance(productID: productID, balance: balance, requested: quantity)
            }
            left = balance - quantity
            return .consume(productID: productID, quantity: quantity)
        }
        return left
    }

    public func remove(transactionID: String) throws(LedgerError) -> Bool {
        try write { $0.positions[transactionID] == nil ? nil : .remove(transactionID: transactionID) } != nil
    }

    public func removeAll() throws(LedgerError) {
        _ = try write { $0.transactions.isEmpty && $0.balances.isEmpty ? nil : .removeAll }
    }

    public func saveUnverifiedOrder(_ order: UnverifiedOrder) throws(LedgerError) {
        _ = try write { _ in .unverified(order) }
    }

    public func removeUnverifiedOrder(transactionID: String) throws(LedgerError) {
        _ = try write { $0.unverified[transactionID] == nil ? nil : .verified(transactionID: transactionID) }
    }

    public func unverifiedOrders() throws(LedgerError) -> [UnverifiedOrder] {
        try read { index in index.unverifiedOrder.compactMap { index.unverified[$0] } }
    }

    // MARK: - File access

    private func read<T>(_ body: (Index) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try index.withLock { index throws(LedgerError) in
            try readNewLines(into: &index, truncateTornTail: false)
            return try body(index)
        }
    }

    /// Under the exclusive lock: catches up, asks `decide` for the entry to append (nil: none),
    /// appends it durably and applies it.
    private func write(_ decide: (Index) throws(LedgerError) -> Entry?) throws(LedgerError) -> Entry? {
        try index.withLock { index throws(LedgerError) in
            try io { () throws(SystemCallError) in _ = try fs.lock(file, waiting: true) }
            defer { fs.unlock(file) }
            try readNewLines(into: &index, truncateTornTail: true)
            guard let entry = try decide(index) else { return nil }
            var line: [UInt8] = []
            do {
                try StreamingJSONEncoder().append(entry, to: &line)
            } catch {
                throw .io(path: path, reason: "cannot encode an entry: \(error)")
            }
            line.append(0x0A)
            try append(line, at: index.offset)
            index.offset += line.count
            index.apply(entry)
            return entry
        }
    }

    private func append(_ line: [UInt8], at offset: Int) throws(LedgerError) {
        try io { () throws(SystemCallError) in try fs.write(file, line, at: UInt64(offset)) }
        guard syncsWrites else { return }
        syncs.add(1, ordering: .relaxed)
        try io { () throws(SystemCallError) in try fs.synchronize(file, .all) }
    }

    private func readNewLines(into index: inout Index, truncateTornTail: Bool) throws(LedgerError) {
        let size = Int(try io { () throws(SystemCallError) in try fs.status(of: file).size })
        guard size > index.offset else { return }
        let bytes = try io { () throws(SystemCallError) in
            try fs.read(file, count: size - index.offset, at: UInt64(index.offset))
        }
        let got = bytes.count
        var start = 0
        let decoder = JSONDecoder()
        while let newline = bytes[start..<got].firstIndex(of: 0x0A) {
            let line = Data(bytes[start..<newline])
            do {
                index.apply(try decoder.decode(Entry.self, from: line))
            } catch {
                throw .corrupt(
                    path: path, reason: "unreadable entry at byte \(index.offset + start): \(error)")
            }
            start = newline + 1
        }
        index.offset += start
        if truncateTornTail, index.offset < size {
            try io { () throws(SystemCallError) in
                try fs.truncate(file, to: UInt64(index.offset))
                try fs.synchronize(file, .all)
            }
        }
    }

    /// Runs a file-system call, naming the failed call and its reason in `LedgerError.io`.
    private func io<T>(_ body: () throws(SystemCallError) -> T) throws(LedgerError) -> T {
        do {
            return try body()
        } catch {
            throw .io(path: path, reason: "\(error.operation): \(error.errno)")
        }
    }
}
