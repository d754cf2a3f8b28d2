import Crypto
import Foundation
import SystemIO

/// A keychain-like encrypted item store in one file: items keyed by service and account,
/// every write sealed with AES-256-GCM (or ChaCha20-Poly1305) and durable when it returns.
///
/// One `Vault` may be shared by any number of threads (one lock inside); several processes
/// may open the same file (an exclusive file lock serialises their writes, and every
/// operation first reads what the others appended). The file format is in
/// Docs/formats/vault.md.
public final class Vault: @unchecked Sendable {
    // `store` is touched only inside `lock.withLock`: that lock is what makes this Sendable.
    private let lock = NSLock()
    private let store: VaultStore
    /// The vault file's path.
    public let path: String

    /// Opens the vault at `url`, creating it (and its key file, for `.keyFile`) on first use.
    /// - Parameters:
    ///   - url: the vault file; its directory is created with mode 0700 if missing.
    ///   - key: what unlocks it (see `VaultKey.fromEnvironment`).
    ///   - configuration: clock, file system, fault hook, KDF limits.
    /// - Throws: `VaultError` — `.authenticationFailed` for a wrong key, `.integrity` for a
    ///   damaged file, `.unsupportedVersion` for a newer format, permission errors naming the fix.
    public init(
        at url: URL, key: VaultKey, configuration: VaultConfiguration = VaultConfiguration()
    )
        throws(VaultError)
    {
        path = url.path
        do {
            store = try VaultStore(path: url.path, key: key, configuration: configuration)
        } catch {
            throw Self.vaultError(error, path: url.path)
        }
    }

    // MARK: - Reading

    /// The item for `service` and `account`, or `nil` if there is none.
    /// - Throws: `VaultError` if the file cannot be read or fails verification.
    public func get(service: String, account: String) throws(VaultError) -> VaultItem? {
        try own { try read { try $0.item(VaultItem.ID(service: service, account: account)) } }
    }

    /// All items of `service`, ordered by account.
    /// - Throws: `VaultError` if the file cannot be read or fails verification.
    public func items(service: String) throws(VaultError) -> [VaultItem] {
        try own { try read { store in try store.items(service: service).sorted { $0.account < $1.account } } }
    }

    /// Hands every item of `service` to `body`, one at a time and in no order, without holding
    /// them all: what a listing of a long history reads. The records are read in file order in
    /// large pieces, each authenticated as `get` does; a record that fails stops the listing.
    /// - Parameter body: runs with this vault's lock held, so it must not call this vault.
    /// - Throws: `VaultError` if the file cannot be read or fails verification, or what `body`
    ///   throws (the listing stops there).
    public func forEachItem(service: String, _ body: (VaultItem) throws -> Void) throws {
        try read { store in try store.forEachItem(service: service, body) }
    }

    /// `forEachItem(service:_:)` handing `body` a view of each item's record instead of the
    /// item (`VaultItemView`: its strings, attributes and data read where the decrypted record
    /// lies, nothing made unless asked for), each authenticated as `get` authenticates it: what
    /// a listing of a long history reads when it needs a few parts of each item.
    /// - Parameter body: runs with this vault's lock held, so it must not call this vault; the
    ///   view and its buffers are valid only during the call.
    /// - Throws: `VaultError` if the file cannot be read or fails verification, or what `body`
    ///   throws (the listing stops there).
    public func forEachItemView(service: String, _ body: (VaultItemView) throws -> Void) throws {
        try read { store in try store.forEachItemView(service: service, body) }
    }

    /// Hands `body` what `derive` derives from each item of `service`, one item at a time and
    /// in no order: for a listing that needs only a few bytes of each item of a long history.
    /// `derive` appends them to the buffer it is handed, from the item's record alone, and only
    /// from the record (the same record must give the same bytes while `derivation`'s version
    /// stays). The vault keeps them, sealed, in the derivation's cache beside the file
    /// (Docs/formats/vault.md, "Derived caches") and hands over the kept bytes of the records the
    /// cache covers instead of reading those records; every other record is read and
    /// authenticated as `get` does. A cache that is missing, stale, torn or altered is ignored.
    /// - Parameters:
    ///   - derive: runs with this vault's lock held; the view is valid only during the call.
    ///   - body: runs with this vault's lock held, so it must not call this vault; the bytes are
    ///     valid only during the call.
    /// - Throws: `VaultError` if a record read cannot be read or fails verification, or what
    ///   `derive` or `body` throws (the listing stops there).
    public func forEachDerived(
        service: String, derivation: VaultDerivation, derive: (VaultItemView, inout [UInt8]) throws -> Void,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try read { store in try store.forEachDerived(service: service, derivation: derivation, derive: derive, body) }
    }

    /// Every item, ordered by service and account.
    /// - Throws: `VaultError` if the file cannot be read or fails verification.
    public func allItems() throws(VaultError) -> [VaultItem] {
        try own { try read { store in try store.items(service: nil).sorted { $0.id < $1.id } } }
    }

    /// Counts of what is in the file (for tests, diagnostics and the benchmark).
    /// - Throws: `VaultError` if the file cannot be read or fails verification.
    public func status() throws(VaultError) -> VaultStatus {
        try own { try read { VaultStatus(items: $0.liveCount, records: $0.recordCount, bytes: $0.verifiedSize) } }
    }

    // MARK: - Writing

    /// Adds a new item.
    /// - Returns: the stored item, with `created` and `modified` from the clock.
    /// - Throws: `VaultError.duplicateItem` if it already exists (use `update` or `upsert`).
    @discardableResult
    public func add(service: String, account: String, _ content: VaultItemContent) throws(VaultError) -> VaultItem {
        let id = VaultItem.ID(service: service, account: account)
        return try own {
            try put(id) { current in
                guard current == nil else { throw VaultError.duplicateItem(id) }
                return .put(content)
            }
        }
    }

    /// Replaces an existing item's content, keeping its `created` date.
    /// - Throws: `VaultError.itemNotFound` if there is no such item (use `add` or `upsert`).
    @discardableResult
    public func update(service: String, account: String, _ content: VaultItemContent) throws(VaultError) -> VaultItem {
        let id = VaultItem.ID(service: service, account: account)
        return try own {
            try put(id) { current in
                guard current != nil else { throw VaultError.itemNotFound(id) }
                return .put(content)
            }
        }
    }

    /// Adds the item, or replaces its content if it exists.
    @discardableResult
    public func upsert(service: String, account: String, _ content: VaultItemContent) throws(VaultError) -> VaultItem {
        try own { try put(VaultItem.ID(service: service, account: account)) { _ in .put(content) } }
    }

    /// Adds or replaces many items of one service in a single durable write (one fsync).
    /// Not a transaction: a crash during the call may leave the first few of them written,
    /// exactly as the same upserts made one by one would.
    /// - Parameter entries: content by account.
    /// - Returns: the stored items, ordered by account.
    /// - Throws: `VaultError.invalidItem` (nothing written) or an I/O error.
    @discardableResult
    public func upsertAll(service: String, _ entries: [String: VaultItemContent]) throws(VaultError) -> [VaultItem] {
        try own {
            try locked { store in
                if store.needsCompaction { try store.compact() }
                let now = RecordPayload.stored(store.configuration.clock.now)
                var items: [VaultItem] = []
                for (account, content) in entries.sorted(by: { $0.key < $1.key }) {
                    let id = VaultItem.ID(service: service, account: account)
                    try RecordPayload.validate(id, content)
                    items.append(
                        VaultItem(id: id, content: content, created: try store.item(id)?.created ?? now, modified: now))
                }
                try store.append(items.map { .put($0) })
                return items
            }
        }
    }

    /// Deletes an item.
    /// - Throws: `VaultError.itemNotFound` if there is no such item.
    public func delete(service: String, account: String) throws(VaultError) {
        let id = VaultItem.ID(service: service, account: account)
        _ = try own {
            try write(id) { current in
                guard current != nil else { throw VaultError.itemNotFound(id) }
                return .delete
            }
        }
    }

    /// Reads, decides and writes one item atomically across threads and processes: `body`
    /// sees the latest value (nothing else writes until it returns) and says what to do.
    /// - Returns: the item as it is afterwards (`nil` if absent or deleted).
    /// - Throws: whatever `body` throws (nothing is written then), or `VaultError`.
    @discardableResult
    public func modify(
        service: String, account: String, _ body: (VaultItem?) throws -> VaultChange
    ) throws -> VaultItem? {
        try write(VaultItem.ID(service: service, account: account), body).item
    }

    /// Reads, decides and writes several items as one atomic, durable write (one `fdatasync`):
    /// `body` sees the latest values (nothing else writes until it returns) and the changes it
    /// made so far; a crash keeps every change it made or none.
    /// - Returns: what `body` returns.
    /// - Throws: whatever `body` throws (nothing is written then), `VaultError.invalidItem`, or
    ///   an I/O error.
    @discardableResult
    public func transact<R: Sendable>(_ body: (inout VaultBatch) throws -> R) throws -> R {
        try locked { store in
            if store.needsCompaction { try store.compact() }
            var batch = VaultBatch(store: store)
            let result = try body(&batch)
            let now = RecordPayload.stored(store.configuration.clock.now)
            var payloads: [RecordPayload] = []
            for id in batch.order {
                guard let change = batch.changes[id] else { continue }
                switch change {
                case .put(let content):
                    try RecordPayload.validate(id, content)
                    payloads.append(
                        .put(
                            VaultItem(
                                id: id, content: content, created: try store.item(id)?.created ?? now, modified: now)))
                case .delete:
                    if try store.item(id) != nil { payloads.append(.delete(id)) }
                case .keep:
                    continue
                }
            }
            try store.append(payloads, atomic: true)
            return result
        }
    }

    /// Re-wraps the data key for a new key or passphrase. Only the header changes; the
    /// records are copied byte for byte (the file is replaced atomically).
    /// - Throws: `VaultError` on I/O failure; the old key keeps working then.
    public func changeKey(to key: VaultKey) throws(VaultError) {
        try own { try locked { store in try store.changeKey(to: key) } }
    }

    /// Rewrites the file with only the live items (normally automatic).
    /// - Throws: `VaultError` on I/O failure; the file is left as it was then.
    public func compact() throws(VaultError) {
        try own { try locked { store in try store.compact() } }
    }

    // MARK: - Plumbing

    private struct Written: Sendable {
        var item: VaultItem?
    }

    private func put(_ id: VaultItem.ID, _ decide: (VaultItem?) throws -> VaultChange) throws -> VaultItem {
        guard let item = try write(id, decide).item else { throw VaultError.itemNotFound(id) }
        return item
    }

    private func write(_ id: VaultItem.ID, _ decide: (VaultItem?) throws -> VaultChange) throws -> Written {
        try locked { store in
            if store.needsCompaction { try store.compact() }
            let current = try store.item(id)
            switch try decide(current) {
            case .keep:
                return Written(item: current)
            case .delete:
                guard current != nil else { return Written(item: nil) }
                try store.append([.delete(id)])
                return Written(item: nil)
            case .put(let content):
                try RecordPayload.validate(id, content)
                let now = RecordPayload.stored(store.configuration.clock.now)
                let item = VaultItem(id: id, content: content, created: current?.created ?? now, modified: now)
                try store.append([.put(item)])
                return Written(item: item)
            }
        }
    }

    /// Runs `body` with the thread lock and the file lock held, after catching up.
    private func locked<R: Sendable>(_ body: (VaultStore) throws -> R) throws -> R {
        if store.configuration.readOnly {
            throw VaultError.io(
                path: path, operation: "write (the vault was opened read-only)",
                errno: Errno.readOnlyFileSystem.rawValue)
        }
        do {
            return try lock.withLock {
                try store.withLock {
                    try store.refresh(forWriting: true)
                    return try body(store)
                }
            }
        } catch {
            throw Self.translate(error, path: path)
        }
    }

    /// Runs `body` after catching up, without the file lock: writers never leave a state a
    /// reader could misread (a half-written record reads as a torn tail and is skipped).
    /// If a read meets bytes that do not verify, it retries once under the lock, in case
    /// it raced with a writer cutting off a torn tail.
    private func read<R: Sendable>(_ body: (VaultStore) throws -> R) throws -> R {
        do {
            return try lock.withLock {
                do {
                    try store.refresh(forWriting: false)
                } catch VaultError.integrity {
                    try store.withLock { try store.refresh(forWriting: false) }
                }
                return try body(store)
            }
        } catch {
            throw Self.translate(error, path: path)
        }
    }

    /// Runs `body`, in which no caller's closure runs, so that every error it throws is the
    /// vault's own (`vaultError(_:path:)`).
    private func own<R>(_ body: () throws -> R) throws(VaultError) -> R {
        do { return try body() } catch { throw Self.vaultError(error, path: path) }
    }

    /// The error a call that takes a caller's closure throws: the vault's own as `VaultError`,
    /// the closure's as it threw it.
    private static func translate(_ error: any Error, path: String) -> any Error {
        switch error {
        case is VaultError, is SystemCallError, is CryptoError: vaultError(error, path: path)
        default: error
        }
    }

    /// The `VaultError` for an error the vault's store threw: its own as it is, a system call's
    /// or OpenSSL's as `.io` naming the call.
    private static func vaultError(_ error: any Error, path: String) -> VaultError {
        switch error {
        case let e as VaultError: e
        case let e as SystemCallError: .io(path: path, operation: e.operation, errno: e.code)
        case let e as CryptoError: .io(path: path, operation: "OpenSSL: \(e.description)", errno: 0)
        default: .io(path: path, operation: "\(error)", errno: 0)
        }
    }
}
