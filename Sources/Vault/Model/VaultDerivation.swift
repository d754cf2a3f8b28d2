/// What a listing derives from each item of a service (a few bytes, by a function of the
/// item's record alone) and lets the vault keep beside it, sealed, in a derived cache
/// (`NAME.derived-NAME`, Docs/formats/vault.md, "Derived caches"): `Vault.forEachDerived`
/// hands over the kept bytes of the items whose records the cache covers instead of reading
/// those records (issue 13: a listing of a long history reads megabytes, not the records'
/// hundreds of megabytes).
public struct VaultDerivation: Sendable, Hashable {
    /// Names the cache file: ASCII letters, digits and `-`, 1 to 64 of them.
    public let name: String
    /// Changes whenever the derivation would derive other bytes from the same record: a cache
    /// of another version is ignored (and replaced).
    public let version: UInt32

    /// A derivation named `name` (ASCII letters, digits and `-`, 1 to 64 of them).
    public init(name: String, version: UInt32) {
        precondition(
            (1...64).contains(name.utf8.count)
                && name.utf8.allSatisfy {
                    $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & 0xDF)
                },
            "a derivation's name is 1 to 64 ASCII letters, digits and '-'")
        self.name = name
        self.version = version
    }
}
