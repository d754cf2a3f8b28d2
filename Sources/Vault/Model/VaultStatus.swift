/// Counts describing a vault file.
public struct VaultStatus: Sendable, Hashable {
    /// Live items.
    public var items: Int
    /// Records in the log (live items plus superseded ones awaiting compaction).
    public var records: Int
    /// Verified bytes in the file.
    public var bytes: UInt64
}
