import Foundation
import Synchronization
import SystemIO
import Vault

/// The purchase ledger kept in the encrypted vault (`Vault`), the way RMStore keeps
/// transactions in the Keychain: one item per transaction, one per unverified order, one
/// consumption counter per consumable. Every write is durable when it returns and atomic on
/// its own; several processes may share the file.
///
/// Items: service `storefront.transactions` (account = transaction ID, data = the
/// transaction as JSON, attribute `counted` = the units it added to its consumable balance
/// when recorded), `storefront.consumed` (account = product ID, data = units consumed), and
/// `storefront.unverified` (account = transaction ID, data = the `UnverifiedOrder` as JSON).
/// A balance is counted units minus consumed units, so recording a purchase is one write and
/// a crash can never leave it recorded but uncounted.
public final class VaultLedger: PurchaseLedger {
    static let transactionsService = "storefront.transactions"
    static let consumedService = "storefront.consumed"
    static let unverifiedService = "storefront.unverified"

    /// The vault holding the ledger.
    public let vault: Vault
    private let clock: any StoreClock
    private let lastOrder = Mutex<UInt64>(0)
    /// Transactions already decoded, by transaction ID, with the bytes they came from: a read
    /// decodes only what changed since the last one (JSON decoding is most of the cost of
    /// reading a large ledger, and entitlements read it on every call).
    private let decoded = Mutex<[String: DecodedTransaction]>([:])

    private struct DecodedTransaction: Sendable {
        let data: Data
        let transaction: Transaction
    }

    /// Uses `vault` as the ledger.
    /// - Parameters:
    ///   - vault: the open vault.
    ///   - clock: the time that orders transactions and unverified orders as they are recorded.
    public init(vault: Vault, clock: any StoreClock = SystemClock()) {
        self.vault = vault
        self.clock = clock
    }

    /// A recording order: nanoseconds since 1970, strictly increasing within this process
    /// (two records in the same clock tick still keep the order they were made in).
    private func nextOrder() -> String {
        let now = UInt64(max(0, clock.now.timeIntervalSince1970 * 1e9))
        return String(lastOrder.withLock { last in
            last = max(now, last + 1)
            return last
        })
    }

    private static func order(_ item: VaultItem) -> UInt64 { item.attributes["order"].flatMap { UInt64($0) } ?? 0 }

    /// Opens (creating on first use) the ledger vault `vault.sfv` in `dataDirectory`, unlocked
    /// by the passphrase in `STOREFRONT_PASSPHRASE` when `environment` has one, else by the
    /// key file `vault.key` beside it.
    /// - Parameters:
    ///   - dataDirectory: the data directory (created 0700 if missing).
    ///   - environment: the process environment, passed in (the library never reads it).
    ///   - faultHook: called at `FaultPoint.midVaultWrite`.
    ///   - prompt: asks for a passphrase at the terminal when the vault needs one and the
    ///     environment has none.
    ///   - clock: the time stamping items and ordering records.
    ///   - fileSystem: the file system the vault is kept through (tests wrap it).
    /// - Throws: `LedgerError` with the vault's own message (what is wrong and what to do).
    public static func open(
        inDataDirectory dataDirectory: URL, environment: [String: String],
        faultHook: @escaping FaultHook = { _ in }, prompt: (any PassphrasePrompt)? = nil,
        clock: any StoreClock = SystemClock(), fileSystem: any FileSystem = POSIXFileSystem()
    ) throws -> VaultLedger {
        let url = dataDirectory.appendingPathComponent("vault.sfv")
        var key = VaultKey.fromEnvironment(environment, keyFile: VaultKey.defaultKeyFile(for: url))
        if case .keyFile = key, let prompt, Self.isPassphraseVault(url) { key = .askPassphrase(prompt) }
        let configuration = VaultConfiguration(clock: clock, fileSystem: fileSystem, faultHook: { point in
            if point == .midVaultWrite { faultHook(.midVaultWrite) }
        })
        do {
            return VaultLedger(vault: try Vault(at: url, key: key, configuration: configuration), clock: clock)
        } catch {
            throw Self.translate(error, path: url.path)
        }
    }

    /// Whether the vault at `url` exists and says it is locked with a passphrase (key kind
    /// byte 33 of its header is 2; Docs/VAULT-FORMAT.md). Only decides whether to ask.
    private static func isPassphraseVault(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 34), head.count == 34 else { return false }
        return head[head.startIndex + 33] == 2
    }

    // MARK: - PurchaseLedger

    public func record(_ transaction: Transaction) throws -> Bool {
        let data = try encode(transaction)
        let order = nextOrder()
        var recorded = false
        try guarded {
            try vault.modify(service: Self.transactionsService, account: transaction.transactionID) { current in
                guard current == nil else { return .keep }
                recorded = true
                let counted = transaction.productType == .consumable && transaction.revocationDate == nil ? transaction.quantity : 0
                return .put(VaultItemContent(
                    data: data, label: transaction.productID,
                    attributes: ["productID": transaction.productID, "counted": "\(counted)", "order": order]))
            }
        }
        return recorded
    }

    /// Records many transactions in one durable write (importing a history); transactions
    /// already recorded are left as they are.
    /// - Returns: how many were new.
    @discardableResult
    public func recordAll(_ transactions: [Transaction]) throws -> Int {
        var entries: [String: VaultItemContent] = [:]
        for transaction in transactions where try !contains(transactionID: transaction.transactionID) {
            let counted = transaction.productType == .consumable && transaction.revocationDate == nil ? transaction.quantity : 0
            entries[transaction.transactionID] = VaultItemContent(
                data: try encode(transaction), label: transaction.productID,
                attributes: ["productID": transaction.productID, "counted": "\(counted)", "order": nextOrder()])
        }
        guard !entries.isEmpty else { return 0 }
        _ = try guarded { try vault.upsertAll(service: Self.transactionsService, entries) }
        return entries.count
    }

    public func contains(transactionID: String) throws -> Bool {
        try guarded { try vault.get(service: Self.transactionsService, account: transactionID) != nil }
    }

    public func transaction(withID transactionID: String) throws -> Transaction? {
        try guarded { try vault.get(service: Self.transactionsService, account: transactionID) }.map(decodeTransaction)
    }

    public func update(_ transaction: Transaction) throws {
        let data = try encode(transaction)
        try guarded {
            try vault.modify(service: Self.transactionsService, account: transaction.transactionID) { current in
                guard let current else { return .keep }
                var content = current.content
                content.data = data
                return .put(content)
            }
        }
    }

    public func transactions() throws -> [Transaction] {
        let items = try guarded { try vault.items(service: Self.transactionsService) }
        let cache = decoded.withLock { $0 }
        var fresh: [String: DecodedTransaction] = [:]
        fresh.reserveCapacity(items.count)
        var listed: [(order: UInt64, transaction: Transaction)] = []
        listed.reserveCapacity(items.count)
        for item in items {
            let transaction: Transaction
            if let hit = cache[item.account], hit.data == item.data {
                transaction = hit.transaction
            } else {
                transaction = try decodeTransaction(item)
            }
            fresh[item.account] = DecodedTransaction(data: item.data, transaction: transaction)
            listed.append((Self.order(item), transaction))
        }
        decoded.withLock { $0 = fresh }
        // Oldest first: the order they were recorded in.
        return listed.sorted { a, b in
            (a.order, a.transaction.purchaseDate, a.transaction.transactionID)
                < (b.order, b.transaction.purchaseDate, b.transaction.transactionID)
        }
        .map(\.transaction)
    }

    public func balance(of productID: String) throws -> Int { try balances(including: true)[productID] ?? 0 }

    public func balances() throws -> [String: Int] { try balances(including: false) }

    public func consume(productID: String, quantity: Int) throws -> Int {
        // Balances only grow between this read and the write below (recording adds units,
        // nothing else removes them but this counter, which the write re-reads under the lock).
        let counted = try countedUnits()[productID] ?? 0
        var left = 0
        try guarded {
            try vault.modify(service: Self.consumedService, account: productID) { current in
                let consumed = current.flatMap { Int(String(decoding: $0.data, as: UTF8.self)) } ?? 0
                let balance = counted - consumed
                guard quantity > 0, balance >= quantity else {
                    throw LedgerError.insufficientBalance(productID: productID, balance: balance, requested: quantity)
                }
                left = balance - quantity
                return .put(VaultItemContent(data: Data("\(consumed + quantity)".utf8), label: productID))
            }
        }
        return left
    }

    public func remove(transactionID: String) throws -> Bool {
        guard let item = try guarded({ try vault.get(service: Self.transactionsService, account: transactionID) }) else {
            return false
        }
        let units = item.attributes["counted"].flatMap(Int.init) ?? 0
        if units > 0, let productID = item.attributes["productID"] {
            // A balance is counted minus consumed, so consumed may not exceed what stays counted
            // (a later purchase's units would be swallowed). The counter is lowered first: a crash
            // before the delete below leaves the transaction recorded, and removing it again
            // finishes the job.
            let left = (try countedUnits()[productID] ?? 0) - units
            try guarded {
                try vault.modify(service: Self.consumedService, account: productID) { current in
                    let consumed = current.flatMap { Int(String(decoding: $0.data, as: UTF8.self)) } ?? 0
                    guard consumed > left else { return .keep }
                    return .put(VaultItemContent(data: Data("\(max(0, left))".utf8), label: productID))
                }
            }
        }
        try guarded {
            try vault.modify(service: Self.transactionsService, account: transactionID) { _ in .delete }
        }
        decoded.withLock { _ = $0.removeValue(forKey: transactionID) }
        return true
    }

    public func removeAll() throws {
        for service in [Self.transactionsService, Self.consumedService] {
            for item in try guarded({ try vault.items(service: service) }) {
                try guarded { try vault.modify(service: service, account: item.account) { _ in .delete } }
            }
        }
        decoded.withLock { $0.removeAll() }
    }

    public func saveUnverifiedOrder(_ order: UnverifiedOrder) throws {
        let data: Data
        do { data = try JSONEncoder().encode(order) } catch {
            throw LedgerError.io(path: vault.path, reason: "cannot encode the order: \(error)")
        }
        let fresh = nextOrder()
        try guarded {
            try vault.modify(service: Self.unverifiedService, account: order.transaction.transactionID) { current in
                // Saving an order again (one more failed attempt) keeps its place in the queue.
                .put(VaultItemContent(
                    data: data, label: order.transaction.productID,
                    attributes: ["order": current?.attributes["order"] ?? fresh]))
            }
        }
    }

    public func removeUnverifiedOrder(transactionID: String) throws {
        try guarded {
            try vault.modify(service: Self.unverifiedService, account: transactionID) { _ in .delete }
        }
    }

    public func unverifiedOrders() throws -> [UnverifiedOrder] {
        let items = try guarded { try vault.items(service: Self.unverifiedService) }
        return try items.sorted { (Self.order($0), $0.account) < (Self.order($1), $1.account) }.map { item in
            do { return try JSONDecoder().decode(UnverifiedOrder.self, from: item.data) } catch {
                throw LedgerError.corrupt(path: vault.path, reason: "unverified order \(item.account) is unreadable: \(error)")
            }
        }
    }

    // MARK: - Plumbing

    private func balances(including zero: Bool) throws -> [String: Int] {
        var result = try countedUnits()
        for item in try guarded({ try vault.items(service: Self.consumedService) }) {
            result[item.account, default: 0] -= Int(String(decoding: item.data, as: UTF8.self)) ?? 0
        }
        return zero ? result : result.filter { $0.value != 0 }
    }

    private func countedUnits() throws -> [String: Int] {
        var counted: [String: Int] = [:]
        for item in try guarded({ try vault.items(service: Self.transactionsService) }) {
            guard let product = item.attributes["productID"], let units = item.attributes["counted"].flatMap(Int.init) else {
                continue
            }
            counted[product, default: 0] += units
        }
        return counted
    }

    private func encode(_ transaction: Transaction) throws -> Data {
        do { return try JSONEncoder().encode(transaction) } catch {
            throw LedgerError.io(path: vault.path, reason: "cannot encode transaction \(transaction.transactionID): \(error)")
        }
    }

    private func decodeTransaction(_ item: VaultItem) throws -> Transaction {
        do { return try JSONDecoder().decode(Transaction.self, from: item.data) } catch {
            throw LedgerError.corrupt(path: vault.path, reason: "transaction \(item.account) is unreadable: \(error)")
        }
    }

    /// Runs a vault call, turning the vault's errors into the ledger's (keeping the message).
    @discardableResult
    private func guarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch {
            throw Self.translate(error, path: vault.path)
        }
    }

    private static func translate(_ error: any Error, path: String) -> any Error {
        switch error {
        case let e as VaultError:
            switch e {
            case .integrity, .notAVault, .unsupportedVersion: LedgerError.corrupt(path: path, reason: e.description)
            default: LedgerError.io(path: path, reason: e.description)
            }
        default: error
        }
    }
}
