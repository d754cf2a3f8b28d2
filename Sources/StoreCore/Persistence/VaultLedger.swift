import Foundation
import Synchronization
package import SystemIO
package import Vault

/// The purchase ledger kept in the encrypted vault (`Vault`), the way RMStore keeps
/// transactions in the Keychain: one item per transaction, one per unverified order, one
/// consumption counter per consumable, and the aggregates that keep every question but the
/// whole history independent of its length. Every write is durable when it returns and atomic
/// (`Vault.transact`); several processes may share the file.
///
/// Items (service, account → data):
/// - `storefront.transactions`, transaction ID → the transaction as JSON (attributes `productID`,
///   `counted` = the units it added to its consumable's balance when recorded, `order`);
/// - `storefront.consumed`, product ID → units consumed; `storefront.counted`, product ID →
///   units counted (the sum of `counted`): a balance is counted minus consumed;
/// - `storefront.entitling`, transaction ID → a copy of each non-consumable and non-renewing
///   transaction; `storefront.groups`, subscription key (the group ID; for a subscription a
///   family member shares, the group ID, U+001F and the share's original transaction ID) → the
///   subscription's latest transaction (in `EntitlementCalculator`'s order);
///   `storefront.periods.KEY`, transaction ID → what orders each of its transactions (for when
///   the latest one moves back);
/// - `storefront.unverified`, transaction ID → the `UnverifiedOrder` as JSON;
/// - `storefront.ledger`, `format` → `3` once the aggregates exist (a ledger written before
///   them gets them in one write on first use; one of format `2`, written before the digest,
///   gets the digest the same way); `digest` → the `TransactionDigest` of every recorded
///   transaction ID (`COUNT SUM`); `audit` → the last harmless audit difference
///   (`Store.auditLedger()`).
public final class VaultLedger: PurchaseLedger {
    static let transactionsService = "storefront.transactions"
    static let consumedService = "storefront.consumed"
    static let countedService = "storefront.counted"
    static let entitlingService = "storefront.entitling"
    static let groupsService = "storefront.groups"
    static let unverifiedService = "storefront.unverified"
    static let ledgerService = "storefront.ledger"
    static let formatAccount = "format"
    static let currentFormat = "3"
    static let digestAccount = "digest"
    static let baselineAccount = "audit"

    static func periodsService(_ groupID: String) -> String { "storefront.periods." + groupID }

    /// The vault holding the ledger.
    package let vault: Vault
    private let clock: any StoreClock
    private let lastOrder = Mutex<UInt64>(0)
    /// Whether this ledger has seen (or made) the aggregates.
    private let aggregated = Mutex(false)
    /// Transactions already decoded, by transaction ID, with the bytes they came from: a read
    /// decodes only what changed since the last one.
    private let decoded = Mutex<[String: DecodedTransaction]>([:])

    private struct DecodedTransaction: Sendable {
        let data: Data
        let transaction: Transaction
    }

    /// Uses `vault` as the ledger.
    /// - Parameters:
    ///   - vault: the open vault.
    ///   - clock: the time that orders transactions and unverified orders as they are recorded.
    package init(vault: Vault, clock: any StoreClock = SystemClock()) {
        self.vault = vault
        self.clock = clock
    }

    /// A recording order: nanoseconds since 1970, strictly increasing within this process
    /// (two records in the same clock tick still keep the order they were made in).
    func nextOrder() -> String {
        let now = UInt64(max(0, clock.now.timeIntervalSince1970 * 1e9))
        return String(
            lastOrder.withLock { last in
                last = max(now, last + 1)
                return last
            })
    }

    static func order(_ item: VaultItem) -> UInt64 { order(item.attributes["order"]) }

    /// `order(_:)` from the attribute's text (a listing reads it from a view of the record).
    static func order(_ attribute: String?) -> UInt64 { attribute.flatMap { UInt64($0) } ?? 0 }

    /// Opens (creating on first use) the ledger vault `vault.sfv` in `dataDirectory`, unlocked
    /// by the passphrase in `STOREFRONT_PASSPHRASE` when `environment` has one, else by the
    /// key file `vault.key` beside it.
    /// - Parameters:
    ///   - dataDirectory: the data directory (created 0700 if missing).
    ///   - environment: the process environment, passed in (the library never reads it).
    ///   - faultHook: called at `FaultPoint.midVaultWrite`.
    ///   - clock: the time stamping items and ordering records.
    ///   - readOnly: only read the vault: every write fails.
    /// - Throws: `LedgerError` with the vault's own message (what is wrong and what to do).
    public static func open(
        inDataDirectory dataDirectory: URL, environment: [String: String],
        faultHook: @escaping FaultHook = { _ in }, clock: any StoreClock = SystemClock(), readOnly: Bool = false
    ) throws(LedgerError) -> VaultLedger {
        try open(
            inDataDirectory: dataDirectory, environment: environment, faultHook: faultHook, prompt: nil, clock: clock,
            fileSystem: POSIXFileSystem(), readOnly: readOnly)
    }

    /// `open(inDataDirectory:environment:faultHook:clock:readOnly:)`, asking `prompt` for a
    /// passphrase at the terminal when the vault needs one and the environment has none, and
    /// keeping the vault through `fileSystem` (tests wrap it).
    package static func open(
        inDataDirectory dataDirectory: URL, environment: [String: String],
        faultHook: @escaping FaultHook = { _ in }, prompt: (any PassphrasePrompt)?,
        clock: any StoreClock = SystemClock(), fileSystem: any FileSystem = POSIXFileSystem(), readOnly: Bool = false
    ) throws(LedgerError) -> VaultLedger {
        let url = dataDirectory.appendingPathComponent("vault.sfv")
        var key = VaultKey.fromEnvironment(environment, keyFile: VaultKey.defaultKeyFile(for: url))
        if case .keyFile = key, let prompt, Self.isPassphraseVault(url) { key = .askPassphrase(prompt) }
        let configuration = VaultConfiguration(
            clock: clock, fileSystem: fileSystem,
            faultHook: { point in
                if point == .midVaultWrite { faultHook(.midVaultWrite) }
            }, readOnly: readOnly)
        do {
            return VaultLedger(vault: try Vault(at: url, key: key, configuration: configuration), clock: clock)
        } catch {
            throw Self.translate(error, path: url.path)
        }
    }

    /// Whether `open(inDataDirectory:environment:…)` would ask for a passphrase: the vault there
    /// is locked with one and `environment` has no `STOREFRONT_PASSPHRASE`.
    public static func asksForPassphrase(inDataDirectory dataDirectory: URL, environment: [String: String]) -> Bool {
        let url = dataDirectory.appendingPathComponent("vault.sfv")
        guard case .keyFile = VaultKey.fromEnvironment(environment, keyFile: VaultKey.defaultKeyFile(for: url)) else {
            return false
        }
        return isPassphraseVault(url)
    }

    /// Whether the vault at `url` exists and says it is locked with a passphrase (key kind
    /// byte 33 of its header is 2; Docs/formats/vault.md). Only decides whether to ask.
    private static func isPassphraseVault(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 34), head.count == 34 else { return false }
        return head[head.startIndex + 33] == 2
    }

    // MARK: - PurchaseLedger

    public func record(_ transaction: Transaction) throws(LedgerError) -> Bool {
        try recordAll([transaction]) == 1
    }

    /// Records many transactions in one durable write (importing a history); transactions
    /// already recorded are left as they are.
    /// - Returns: how many were new.
    @discardableResult
    public func recordAll(_ transactions: [Transaction]) throws(LedgerError) -> Int {
        let encoded = try guarded { try transactions.map { ($0, try encode($0), nextOrder()) } }
        return try guarded {
            try vault.transact { batch in
                try prepareAggregates(in: &batch)
                var digest = try Self.digest(in: batch)
                var added = 0
                let aggregates = LedgerAggregates()
                for (transaction, data, order) in encoded {
                    let id = transaction.transactionID
                    guard try batch.get(service: Self.transactionsService, account: id) == nil else { continue }
                    let counted = Self.countedUnits(transaction)
                    batch.put(
                        service: Self.transactionsService, account: id,
                        VaultItemContent(
                            data: data, label: transaction.productID,
                            attributes: ["productID": transaction.productID, "counted": "\(counted)", "order": order]))
                    try aggregates.recorded(transaction, data: data, order: order, counted: counted, in: &batch)
                    digest.insert(id)
                    added += 1
                }
                if added > 0 { Self.put(digest, as: Self.digestAccount, in: &batch) }
                return added
            }
        }
    }

    public func contains(transactionID: String) throws(LedgerError) -> Bool {
        try guarded { try vault.get(service: Self.transactionsService, account: transactionID) != nil }
    }

    public func transaction(withID transactionID: String) throws(LedgerError) -> Transaction? {
        try guarded { try vault.get(service: Self.transactionsService, account: transactionID) }.map(decodeTransaction)
    }

    public func update(_ transaction: Transaction) throws(LedgerError) {
        let data = try encode(transaction)
        try guarded {
            try vault.transact { batch in
                guard let current = try batch.get(service: Self.transactionsService, account: transaction.transactionID)
                else { return }
                try prepareAggregates(in: &batch)
                var content = current.content
                content.data = data
                batch.put(service: Self.transactionsService, account: transaction.transactionID, content)
                let aggregates = LedgerAggregates()
                try aggregates.updated(
                    transaction, data: data, order: content.attributes["order"] ?? "0", in: &batch,
                    decode: decodeTransaction)
            }
        }
    }

    public func transactions() throws(LedgerError) -> [Transaction] {
        try sortedTransactions(try guarded { try vault.items(service: Self.transactionsService) })
    }

    /// Every non-consumable and non-renewing transaction, and each subscription group's latest
    /// one: from the aggregates, so its cost does not grow with the history.
    public func entitlementTransactions() throws(LedgerError) -> [Transaction] {
        try ensureAggregates()
        let entitling = try guarded { try vault.items(service: Self.entitlingService) }
        let latest = try guarded { try vault.items(service: Self.groupsService) }
        return try sortedTransactions(entitling) + latest.map(decodeTransaction)
    }

    /// Each subscription's latest transaction, from the aggregates: no non-consumable is read
    /// (a `storefront buy` reports statuses at the engine's start).
    public func subscriptionTransactions() throws(LedgerError) -> [Transaction] {
        try ensureAggregates()
        return try guarded { try vault.items(service: Self.groupsService) }.map(decodeTransaction)
    }

    public func balance(of productID: String) throws(LedgerError) -> Int {
        try ensureAggregates()
        let counted =
            try guarded { try vault.get(service: Self.countedService, account: productID) }.map(Self.number) ?? 0
        let consumed =
            try guarded { try vault.get(service: Self.consumedService, account: productID) }.map(Self.number) ?? 0
        return counted - consumed
    }

    public func balances() throws(LedgerError) -> [String: Int] {
        try ensureAggregates()
        var result: [String: Int] = [:]
        for item in try guarded({ try vault.items(service: Self.countedService) }) {
            result[item.account] = Self.number(item)
        }
        for item in try guarded({ try vault.items(service: Self.consumedService) }) {
            result[item.account, default: 0] -= Self.number(item)
        }
        return result.filter { $0.value != 0 }
    }

    public func consume(productID: String, quantity: Int) throws(LedgerError) -> Int {
        try guarded {
            try vault.transact { batch in
                try prepareAggregates(in: &batch)
                let counted = try batch.get(service: Self.countedService, account: productID).map(Self.number) ?? 0
                let consumed = try batch.get(service: Self.consumedService, account: productID).map(Self.number) ?? 0
                let balance = counted - consumed
                guard quantity > 0, balance >= quantity else {
                    throw LedgerError.insufficientBalance(productID: productID, balance: balance, requested: quantity)
                }
                batch.put(
                    service: Self.consumedService, account: productID,
                    VaultItemContent(data: Data("\(consumed + quantity)".utf8), label: productID))
                return balance - quantity
            }
        }
    }

    public func remove(transactionID: String) throws(LedgerError) -> Bool {
        let removed = try guarded {
            try vault.transact { batch -> Bool in
                guard let item = try batch.get(service: Self.transactionsService, account: transactionID) else {
                    return false
                }
                try prepareAggregates(in: &batch)
                batch.delete(service: Self.transactionsService, account: transactionID)
                // The aggregates follow in the same atomic write: the units it counted leave
                // its balance (consumed lowered to what stays counted, so a later purchase's
                // units are not swallowed), its copy and its place in its group go.
                try LedgerAggregates().removed(
                    try decodeTransaction(item), item: item, in: &batch, decode: decodeTransaction)
                var digest = try Self.digest(in: batch)
                digest.remove(transactionID)
                Self.put(digest, as: Self.digestAccount, in: &batch)
                return true
            }
        }
        decoded.withLock { _ = $0.removeValue(forKey: transactionID) }
        return removed
    }

    public func removeAll() throws(LedgerError) {
        try guarded {
            try vault.transact { batch in
                var services = [
                    Self.transactionsService, Self.consumedService, Self.countedService, Self.entitlingService,
                ]
                services += try batch.items(service: Self.groupsService).map { Self.periodsService($0.account) }
                services.append(Self.groupsService)
                for service in services {
                    for item in try batch.items(service: service) {
                        batch.delete(service: service, account: item.account)
                    }
                }
                for account in [Self.digestAccount, Self.baselineAccount] {
                    batch.delete(service: Self.ledgerService, account: account)
                }
                // An empty ledger's aggregates are empty: it stays marked as having them.
                batch.put(
                    service: Self.ledgerService, account: Self.formatAccount,
                    VaultItemContent(data: Data(Self.currentFormat.utf8)))
            }
        }
        decoded.withLock { $0.removeAll() }
    }

    public func saveUnverifiedOrder(_ order: UnverifiedOrder) throws(LedgerError) {
        let data: Data
        do { data = Data(try StreamingJSONEncoder().encode(order)) } catch {
            throw .io(path: vault.path, reason: "cannot encode the order: \(error)")
        }
        let fresh = nextOrder()
        try guarded {
            try vault.modify(service: Self.unverifiedService, account: order.transaction.transactionID) { current in
                // Saving an order again (one more failed attempt) keeps its place in the queue.
                .put(
                    VaultItemContent(
                        data: data, label: order.transaction.productID,
                        attributes: ["order": current?.attributes["order"] ?? fresh]))
            }
        }
    }

    public func removeUnverifiedOrder(transactionID: String) throws(LedgerError) {
        try guarded {
            try vault.modify(service: Self.unverifiedService, account: transactionID) { _ in .delete }
        }
    }

    public func unverifiedOrders() throws(LedgerError) -> [UnverifiedOrder] {
        let items = try guarded { try vault.items(service: Self.unverifiedService) }
        return try items.sorted { (Self.order($0), $0.account) < (Self.order($1), $1.account) }.map {
            item throws(LedgerError) -> UnverifiedOrder in
            do { return try JSONDecoder().decode(UnverifiedOrder.self, from: item.data) } catch {
                throw LedgerError.corrupt(
                    path: vault.path, reason: "unverified order \(item.account) is unreadable: \(error)")
            }
        }
    }

    // MARK: - Plumbing

    /// The units a transaction adds to its consumable's balance when it is recorded.
    static func countedUnits(_ transaction: Transaction) -> Int {
        transaction.productType == .consumable && transaction.revocationDate == nil ? transaction.quantity : 0
    }

    static func number(_ item: VaultItem) -> Int { Int(String(decoding: item.data, as: UTF8.self)) ?? 0 }

    /// Decodes the items' transactions (reusing what was decoded before from the same bytes),
    /// oldest first: the order they were recorded in.
    private func sortedTransactions(_ items: [VaultItem]) throws(LedgerError) -> [Transaction] {
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
        decoded.withLock { current in current.merge(fresh) { $1 } }
        return listed.sorted { a, b in
            (a.order, a.transaction.purchaseDate, a.transaction.transactionID)
                < (b.order, b.transaction.purchaseDate, b.transaction.transactionID)
        }
        .map(\.transaction)
    }

    func encode(_ transaction: Transaction) throws(LedgerError) -> Data {
        do { return Data(try StreamingJSONEncoder().encode(transaction)) } catch {
            throw .io(
                path: vault.path, reason: "cannot encode transaction \(transaction.transactionID): \(error)")
        }
    }

    func decodeTransaction(_ item: VaultItem) throws(LedgerError) -> Transaction {
        do { return try JSONDecoder().decode(Transaction.self, from: item.data) } catch {
            throw .corrupt(path: vault.path, reason: "transaction \(item.account) is unreadable: \(error)")
        }
    }

    /// Makes sure the aggregates can be read: a ledger marked as having them has them; an
    /// empty one needs none (its first write marks it); one written before them gets them now,
    /// in one write.
    func ensureAggregates() throws(LedgerError) {
        guard !aggregated.withLock({ $0 }) else { return }
        if try guarded({ try vault.get(service: Self.ledgerService, account: Self.formatAccount) })?.data
            == Data(Self.currentFormat.utf8)
        {
            aggregated.withLock { $0 = true }
            return
        }
        guard try !guarded({ try vault.items(service: Self.transactionsService) }).isEmpty else { return }
        try guarded { try vault.transact { batch in try prepareAggregates(in: &batch) } }
        aggregated.withLock { $0 = true }
    }

    /// Inside a write: when the ledger is not marked as having its aggregates, makes them
    /// afresh from its transactions (so making them twice changes nothing) and marks it.
    /// A ledger of format 2 (aggregates, no digest) gets its digest the same way.
    private func prepareAggregates(in batch: inout VaultBatch) throws {
        let format = try batch.get(service: Self.ledgerService, account: Self.formatAccount)
        guard format?.data != Data(Self.currentFormat.utf8) else { return }
        let transactions = try batch.items(service: Self.transactionsService)
        if format == nil { try LedgerAggregates().rebuild(from: transactions, in: &batch, decode: decodeTransaction) }
        Self.put(TransactionDigest(ids: transactions.map(\.account)), as: Self.digestAccount, in: &batch)
        batch.put(
            service: Self.ledgerService, account: Self.formatAccount,
            VaultItemContent(data: Data(Self.currentFormat.utf8)))
    }

    /// Runs vault calls, turning the vault's errors into the ledger's (keeping the message).
    @discardableResult
    func guarded<T>(_ body: () throws -> T) throws(LedgerError) -> T {
        do { return try body() } catch {
            throw Self.translate(error, path: vault.path)
        }
    }

    /// The ledger's error for `error`: its own passes through, the vault's keeps its message.
    private static func translate(_ error: any Error, path: String) -> LedgerError {
        switch error {
        case let ledger as LedgerError: ledger
        case let e as VaultError:
            switch e {
            case .integrity, .notAVault, .unsupportedVersion: .corrupt(path: path, reason: e.description)
            default: .io(path: path, reason: e.description)
            }
        default: .io(path: path, reason: "\(error)")
        }
    }
}
