/// Places inside a write where a test may stop the process (see `VaultConfiguration.faultHook`).
public enum VaultFaultPoint: String, Sendable, CaseIterable {
    /// Half of a record has been written to the log, the rest not yet.
    case midVaultWrite = "mid-vault-write"
    /// A compacted copy has been written and synced, not yet renamed over the vault.
    case midCompaction = "mid-vault-compaction"
    /// A header with a new key slot has been written and synced, not yet renamed.
    case midKeyChange = "mid-vault-key-change"
}
