/// The item tags a codec computed last, so that rewriting an item does not pay its HMAC again:
/// a vault rewrites the same few items (a ledger's aggregates, a setting) far more often than
/// it names new ones, and the tag of an item never changes under one data key. Bounded: it is
/// emptied when it holds `capacity` tags.
///
/// Not thread-safe, like the codec that owns it (used under the vault's lock).
final class ItemTagCache {
    private var tags: [VaultItem.ID: [UInt8]] = [:]
    let capacity: Int

    init(capacity: Int = 256) { self.capacity = capacity }

    /// The tag kept for `id`, else the one `compute` returns (then kept).
    func tag(_ id: VaultItem.ID, _ compute: () throws -> [UInt8]) rethrows -> [UInt8] {
        if let tag = tags[id] { return tag }
        let tag = try compute()
        if tags.count >= capacity { tags.removeAll(keepingCapacity: true) }
        tags[id] = tag
        return tag
    }
}
