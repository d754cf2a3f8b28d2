import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import Vault

/// A listing's derived cache (`Vault.forEachDerived`, `NAME.derived-NAME`): a listing from it
/// gives what the records give, the records it covers are not read again, and a cache that is
/// damaged, cut short, stale, for another file, key or derivation, or for a copy of the file
/// that went its own way never gives wrong data (it is ignored, or the entry the index names
/// is read from the vault).
@Suite struct DerivedCacheTests {
    static let derivation = VaultDerivation(name: "test-rows", version: 1)

    static func cacheURL(_ dir: TemporaryDirectory, _ derivation: VaultDerivation = derivation) -> URL {
        URL(fileURLWithPath: DerivedCache.path(dir.vault.path, derivation))
    }

    /// What a listing derives: account and data; with how many items it derived (read).
    static func listing(
        _ vault: Vault, service: String = "s", _ derivation: VaultDerivation = derivation
    ) throws -> (items: [String: String], derived: Int) {
        var items: [String: String] = [:]
        var derived = 0
        try vault.forEachDerived(service: service, derivation: derivation) { view, bytes in
            derived += 1
            bytes += Array(view.account.utf8) + [0] + Array(view.data)
        } _: { row in
            let bytes = Array(row)
            let split = bytes.firstIndex(of: 0) ?? bytes.count
            let account = String(decoding: bytes[..<split], as: UTF8.self)
            #expect(items[account] == nil, "listed twice: \(account)")
            items[account] = String(decoding: bytes[min(bytes.count, split + 1)...], as: UTF8.self)
        }
        return (items, derived)
    }

    /// The items the index names that no record after it replaced (what the cache can hold).
    static func indexed(_ vault: Vault) throws -> Int {
        let store = try #require(Mirror(reflecting: vault).descendant("store") as? VaultStore)
        let replaced = try Set(
            (Array(store.log.items.keys) + Array(store.log.deleted)).map { try store.codec.indexKey($0) })
        let prefix = try store.codec.serviceTag("s")
        return try #require(store.index).entries(withPrefix: prefix).filter { !replaced.contains($0.key) }.count
    }

    @Test func aListingFromTheCacheGivesWhatTheRecordsGiveAndReadsNoneItCovers() throws {
        let dir = try TemporaryDirectory()
        let expected = try IndexTests.populated(dir)
        let vault = try IndexTests.open(dir)
        let replayed = try vault.items(service: "s").count - Self.indexed(vault)
        let first = try Self.listing(vault)
        #expect(first.items == expected)
        #expect(first.derived == expected.count, "no cache yet: every item derived")
        #expect(FileManager.default.fileExists(atPath: Self.cacheURL(dir).path))
        let second = try Self.listing(try IndexTests.open(dir))
        #expect(second.items == expected)
        #expect(second.derived == replayed, "only the items replayed after the index are derived")
        // Another service of the same vault is not in this cache.
        #expect(try Self.listing(vault, service: "other").items == ["x": "other"])
        // Nor is another derivation (another file).
        let other = VaultDerivation(name: "test-rows", version: 2)
        #expect(try Self.listing(vault, other).derived == expected.count)
    }

    @Test func everyDamagedCacheByteIsIgnoredNeverWrongData() throws {
        let dir = try TemporaryDirectory()
        let expected = try IndexTests.populated(dir)
        _ = try Self.listing(try IndexTests.open(dir))
        let original = try fileBytes(Self.cacheURL(dir))
        #expect(original.count > 200)
        for position in 0..<original.count {
            var damaged = original
            damaged[position] ^= 0x04
            try writeBytes(damaged, to: Self.cacheURL(dir))
            var configuration = IndexTests.configuration()
            configuration.readOnly = true
            let vault = try IndexTests.open(dir, configuration)
            let listed = try Self.listing(vault)
            #expect(listed.items == expected, "byte \(position)")
            #expect(listed.derived == expected.count, "byte \(position): the cache is ignored")
        }
        // Cut short, or empty.
        for length in [0, 10, 77, original.count / 2, original.count - 1] {
            try writeBytes(Array(original.prefix(length)), to: Self.cacheURL(dir))
            #expect(try Self.listing(try IndexTests.open(dir)).items == expected, "\(length) bytes")
        }
    }

    @Test func anotherVaultsCacheIsIgnored() throws {
        let dir = try TemporaryDirectory()
        let expected = try IndexTests.populated(dir)
        let other = try TemporaryDirectory()
        _ = try churn(try IndexTests.open(other), steps: 60, accounts: 40, deleteEvery: 11, value: { "other \($0)" })
        _ = try Self.listing(try IndexTests.open(other))
        try writeBytes(try fileBytes(Self.cacheURL(other)), to: Self.cacheURL(dir))
        let listed = try Self.listing(try IndexTests.open(dir))
        #expect(listed.items == expected)
        #expect(listed.derived == expected.count)
    }

    @Test func aStaleCacheGivesTheItemsAsTheyAreNow() throws {
        let dir = try TemporaryDirectory()
        var expected = try IndexTests.populated(dir)
        _ = try Self.listing(try IndexTests.open(dir))
        let stale = try fileBytes(Self.cacheURL(dir))
        // Updates, deletions and additions after the cache, past another index rewrite.
        let vault = try IndexTests.open(dir)
        for i in 0..<30 {
            let account = "k\(i % 45)"
            if i % 7 == 3 {
                if expected[account] != nil { try vault.delete(service: "s", account: account) }
                expected[account] = nil
            } else {
                try vault.upsert(service: "s", account: account, content("later \(i)"))
                expected[account] = "later \(i)"
            }
        }
        #expect(try Self.listing(try IndexTests.open(dir)).items == expected)
        // The old cache put back (a rollback of the cache alone): still what the vault holds.
        try writeBytes(stale, to: Self.cacheURL(dir))
        #expect(try Self.listing(try IndexTests.open(dir)).items == expected)
        // And after a compaction (a new file id, a new key for its caches).
        try IndexTests.open(dir).compact()
        let compacted = try Self.listing(try IndexTests.open(dir))
        #expect(compacted.items == expected)
        #expect(try Self.listing(try IndexTests.open(dir)).items == expected)
    }

    /// The file put back to an older copy of itself, then written otherwise: the cache made
    /// on the other branch covers records this file does not have.
    @Test func aCacheOfACopyThatWentItsOwnWayIsIgnored() throws {
        let dir = try TemporaryDirectory()
        _ = try IndexTests.populated(dir)
        let fork = try fileBytes(dir.vault)
        let forkIndex = try fileBytes(IndexTests.indexURL(dir))
        let vault = try IndexTests.open(dir)
        for i in 0..<40 { try vault.upsert(service: "s", account: "k\(i)", content("branch a \(i)")) }
        let branchA = try Self.listing(try IndexTests.open(dir))
        #expect(branchA.items["k3"] == "branch a 3")
        let cacheA = try fileBytes(Self.cacheURL(dir))
        try writeBytes(fork, to: dir.vault)
        try writeBytes(forkIndex, to: IndexTests.indexURL(dir))
        try FileManager.default.removeItem(at: Self.cacheURL(dir))
        let forked = try IndexTests.open(dir)
        var expected: [String: String] = [:]
        for i in 0..<40 {
            try forked.upsert(service: "s", account: "k\(i)", content("branch b \(i)"))
            expected["k\(i)"] = "branch b \(i)"
        }
        try writeBytes(cacheA, to: Self.cacheURL(dir))
        let listed = try Self.listing(try IndexTests.open(dir))
        #expect(listed.items == expected)
    }

    @Test func aReadOnlyVaultWritesNoCacheAndAFailedWriteChangesNothing() throws {
        let dir = try TemporaryDirectory()
        let expected = try IndexTests.populated(dir)
        let before = try ReadOnlyVaultTests.files(dir)
        let readOnly = try IndexTests.open(dir, ReadOnlyVaultTests.readOnly())
        #expect(try Self.listing(readOnly).items == expected)
        #expect(try ReadOnlyVaultTests.files(dir) == before, "nothing written")
        // Every write of the cache failing: the listing is the same, and no cache is left.
        let failing = FaultInjectingFileSystem()
        let faulty = try IndexTests.open(dir, IndexTests.configuration(fileSystem: failing))
        failing.fail(.write, repeating: true)
        #expect(try Self.listing(faulty).items == expected)
        #expect(failing.calls(of: .write) > 0, "the cache's write was tried")
        #expect(!FileManager.default.fileExists(atPath: Self.cacheURL(dir).path))
    }
}
