/// An order-independent summary of a set of transaction IDs: how many there are and the sum,
/// modulo 2⁶⁴, of each one's FNV-1a hash. Both sides of `Store.auditLedger()` keep one as they
/// change (the store over what the app finished, the ledger over what it recorded), so the
/// common case — the same set — is told by comparing two numbers, not two histories. Equal
/// digests of different sets need a sum of 64-bit hashes to cancel out: an accident of
/// probability about 2⁻⁶⁴, not something a lost or rolled-back file makes (it changes the count).
public struct TransactionDigest: Sendable, Hashable, CustomStringConvertible {
    /// How many IDs were added, less how many were removed.
    public var count: Int
    /// The sum of the added IDs' hashes, less the removed ones', modulo 2⁶⁴.
    public var sum: UInt64

    /// A digest of `count` IDs whose hashes add up to `sum`.
    public init(count: Int = 0, sum: UInt64 = 0) {
        self.count = count
        self.sum = sum
    }

    /// The digest of `ids` (each counted as often as it appears).
    public init(ids: some Sequence<String>) {
        self.init()
        for id in ids { insert(id) }
    }

    /// Adds one ID.
    public mutating func insert(_ id: String) {
        count += 1
        sum &+= Self.hash(id)
    }

    /// Takes one ID away.
    public mutating func remove(_ id: String) {
        count -= 1
        sum &-= Self.hash(id)
    }

    /// What `lhs` holds beyond `rhs`: equal differences at two moments mean (but for the
    /// accident above) that the same IDs separate the two sets.
    public static func - (lhs: TransactionDigest, rhs: TransactionDigest) -> TransactionDigest {
        TransactionDigest(count: lhs.count - rhs.count, sum: lhs.sum &- rhs.sum)
    }

    /// FNV-1a, 64 bits, of the ID's UTF-8: the same in every process and build (Swift's
    /// `Hasher` is seeded per process).
    public static func hash(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// `COUNT SUM`, as the ledger keeps it.
    public var description: String { "\(count) \(sum)" }

    /// Reads `description`'s form.
    public init?(_ text: String) {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let count = Int(parts[0]), let sum = UInt64(parts[1]) else { return nil }
        self.init(count: count, sum: sum)
    }
}
