/// The changes of one atomic write (`Vault.transact`): reads see the vault as it is under the
/// write lock, with this batch's own changes on top; the changes are written together, and a
/// crash keeps all of them or none.
public struct VaultBatch {
    private let store: VaultStore
    /// Each item's change, the last one made.
    private(set) var changes: [VaultItem.ID: VaultChange] = [:]
    /// Items in the order they were first changed (the order the records are written in).
    private(set) var order: [VaultItem.ID] = []

    init(store: VaultStore) {
        self.store = store
    }

    /// The item as this batch leaves it so far (`nil` when absent or deleted).
    /// - Throws: `VaultError` when the file cannot be read or fails verification.
    public func get(service: String, account: String) throws -> VaultItem? {
        let id = VaultItem.ID(service: service, account: account)
        let stored = try store.item(id)
        switch changes[id] {
        case .put(let content)?:
            return VaultItem(
                id: id, content: content, created: stored?.created ?? .distantPast,
                modified: stored?.modified ?? .distantPast)
        case .delete?:
            return nil
        case .keep?, nil:
            return stored
        }
    }

    /// Every item of `service` as this batch leaves it so far, ordered by account.
    /// - Throws: `VaultError` when the file cannot be read or fails verification.
    public func items(service: String) throws -> [VaultItem] {
        var byAccount: [String: VaultItem] = [:]
        for item in try store.items(service: service) { byAccount[item.account] = item }
        for id in order where id.service == service {
            byAccount[id.account] = try get(service: id.service, account: id.account)
        }
        return byAccount.values.sorted { $0.account < $1.account }
    }

    /// Adds the item, or replaces its content (keeping its `created` date), in this write.
    public mutating func put(service: String, account: String, _ content: VaultItemContent) {
        change(VaultItem.ID(service: service, account: account), .put(content))
    }

    /// Deletes the item in this write (nothing when it does not exist).
    public mutating func delete(service: String, account: String) {
        change(VaultItem.ID(service: service, account: account), .delete)
    }

    private mutating func change(_ id: VaultItem.ID, _ change: VaultChange) {
        if changes.updateValue(change, forKey: id) == nil { order.append(id) }
    }
}
