/// What `Vault.modify` does with an item after looking at its current value.
public enum VaultChange: Sendable, Hashable {
    /// Leave the item as it is (no write).
    case keep
    /// Write this content (adds the item, or replaces the content and keeps `created`).
    case put(VaultItemContent)
    /// Delete the item (no write if it does not exist).
    case delete
}
