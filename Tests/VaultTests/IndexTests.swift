import Crypto
import Foundation
import SystemIO
import TestSupport
import Testing

@testable import Vault

/// The index beside a large vault (`NAME.idx`): opening reads it and the records after it, an
/// item is authenticated when read, and an index that is damaged, stale, forged or for another
/// file never gives wrong data (it is ignored and the whole log read instead).
@Suite struct IndexTests {
    /// Small thresholds, so a test vault of a few dozen records has an index.
    static func configuration(
        fileSystem: any FileSystem = POSIXFileSystem(), compaction: Int = 1024
    ) -> VaultConfiguration {
        var configuration = testConfiguration(fileSystem: fileSystem, compactionMinimumGarbage: compaction)
        configuration.indexMinimumRecords = 16
        configuration.indexTailRecords = 8
        return configuration
    }

    static func open(_ dir: TemporaryDirectory, _ configuration: VaultConfiguration = configuration()) throws -> Vault {
        try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: configuration)
    }

    static var indexURL: (TemporaryDirectory) -> URL { { URL(fileURLWithPath: $0.vault.path + ".idx") } }

    /// A vault of 40 items written one by one, some updated and deleted; its expected items.
    static func populated(_ dir: TemporaryDirectory) throws -> [String: String] {
        let vault = try open(dir)
        let expected = try churn(vault, steps: 60, accounts: 40, deleteEvery: 11, value: { "v\($0)" })
        try vault.upsert(service: "other", account: "x", content("other"))
        return expected
    }

    static func items(_ vault: Vault) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try vault.items(service: "s").map { ($0.account, text($0) ?? "") })
    }

    @Test func aLargeVaultGetsAnIndexAndOpensFromItWithTheSameItems() throws {
        let dir = try TemporaryDirectory()
        let expected = try Self.populated(dir)
        #expect(FileManager.default.fileExists(atPath: Self.indexURL(dir).path))
        let reopened = try Self.open(dir)
        let store = try #require(Mirror(reflecting: reopened).descendant("store") as? VaultStore)
        #expect(store.index != nil, "opened from the index")
        #expect(store.log.tailRecords < 8, "only the records after the index were replayed")
        #expect(try Self.items(reopened) == expected)
        #expect(text(try reopened.get(service: "other", account: "x")) == "other")
        #expect(expected["k21"] == nil)
        #expect(try reopened.get(service: "s", account: "k21") == nil, "deleted")
        #expect(try reopened.status().items == expected.count + 1)
        // The same as a reader that ignores the index.
        try FileManager.default.removeItem(at: Self.indexURL(dir))
        let whole = try Self.open(dir, testConfiguration())
        #expect(try whole.allItems() == reopened.allItems())
    }

    /// With the production thresholds, a vault of a hundred records (a short purchase history)
    /// gets its index at the next open, and the opens after it replay only what follows it.
    @Test func aHundredRecordsGetAnIndexWithTheDefaults() throws {
        let dir = try TemporaryDirectory()
        let written = try Self.open(dir, testConfiguration())
        let expected = try churn(written, steps: 100, accounts: 100, deleteEvery: 1000, value: { "v\($0)" })
        #expect(!FileManager.default.fileExists(atPath: Self.indexURL(dir).path))
        _ = try Self.open(dir, testConfiguration())
        #expect(FileManager.default.fileExists(atPath: Self.indexURL(dir).path))
        let reopened = try Self.open(dir, testConfiguration())
        let store = try #require(Mirror(reflecting: reopened).descendant("store") as? VaultStore)
        #expect(store.index != nil, "opened from the index")
        #expect(store.log.tailRecords == 0, "no record replayed")
        #expect(try Self.items(reopened) == expected)
    }

    @Test func everyDamagedIndexByteIsIgnoredOrRefusedNeverWrongData() throws {
        let dir = try TemporaryDirectory()
        let expected = try Self.populated(dir)
        let original = try fileBytes(Self.indexURL(dir))
        // Every byte of the header, the first page and the last page, flipped.
        let pageStart = (original.count / VaultIndex.pageSize - 1) * VaultIndex.pageSize
        let positions =
            Array(0..<min(original.count, 200)) + Array(4096..<4200)
            + Array(pageStart..<original.count).filter { $0 % 7 == 0 }
        for position in positions {
            var damaged = original
            damaged[position] ^= 0x10
            try writeBytes(damaged, to: Self.indexURL(dir))
            // A header that fails is ignored at once; a page that fails when it is read makes
            // the handle drop the index and read the whole log.
            let vault = try Self.open(dir)
            #expect(try Self.items(vault) == expected, "byte \(position)")
            #expect(text(try vault.get(service: "other", account: "x")) == "other", "byte \(position)")
        }
    }

    @Test func aTruncatedOrForeignOrStaleIndexIsIgnored() throws {
        let dir = try TemporaryDirectory()
        let expected = try Self.populated(dir)
        let index = try fileBytes(Self.indexURL(dir))
        // Cut short.
        try writeBytes(Array(index.prefix(index.count / 2)), to: Self.indexURL(dir))
        #expect(try Self.items(Self.open(dir)) == expected)
        // Another vault's index (same key file, other file id and data key).
        let other = try TemporaryDirectory()
        _ = try Self.populated(other)
        try writeBytes(try fileBytes(Self.indexURL(other)), to: Self.indexURL(dir))
        #expect(try Self.items(Self.open(dir)) == expected)
        // An older index of this very file: the records after it are replayed.
        try writeBytes(index, to: Self.indexURL(dir))
        let vault = try Self.open(dir)
        try vault.upsert(service: "s", account: "k0", content("after the index"))
        try writeBytes(index, to: Self.indexURL(dir))
        var newer = expected
        newer["k0"] = "after the index"
        #expect(try Self.items(Self.open(dir)) == newer)
    }

    @Test func aTruncatedVaultWithAnIndexOpensAsAPrefixFromTheWholeLog() throws {
        let dir = try TemporaryDirectory()
        _ = try Self.populated(dir)
        let bytes = try fileBytes(dir.vault)
        // Cut the file below the index's end: the index no longer describes it.
        let cut = Array(bytes.prefix(bytes.count - 400))
        try writeBytes(cut, to: dir.vault)
        let withIndex = try Self.open(dir)
        try FileManager.default.removeItem(at: Self.indexURL(dir))
        let withoutIndex = try Self.open(dir, testConfiguration())
        #expect(try withIndex.allItems() == withoutIndex.allItems())
    }

    @Test func aRecordTheIndexNamesIsAuthenticatedWhenRead() throws {
        let dir = try TemporaryDirectory()
        _ = try Self.populated(dir)
        let vault = try Self.open(dir)
        let store = try #require(Mirror(reflecting: vault).descendant("store") as? VaultStore)
        // A record the index names that no later write replaced.
        let replaced = try Set(
            (Array(store.log.items.keys) + Array(store.log.deleted)).map { try store.codec.indexKey($0) })
        let entry = try #require(try store.index?.allEntries().first { !replaced.contains($0.key) })
        let bytes = try fileBytes(dir.vault)
        // A flipped bit inside the record's sealed bytes.
        var damaged = bytes
        damaged[Int(entry.offset) + 60] ^= 1
        try writeBytes(damaged, to: dir.vault)
        let reopened = try Self.open(dir)
        let reopenedStore = try #require(Mirror(reflecting: reopened).descendant("store") as? VaultStore)
        #expect(reopenedStore.index != nil, "opened from the index")
        let error = vaultError { _ = try reopened.allItems() }
        #expect(error?.isIntegrity == true, "\(String(describing: error))")
        #expect(error?.description.contains("byte \(entry.offset)") == true, "\(String(describing: error))")
    }

    /// Writes "victim" twice among 60 fillers (so the vault keeps an index), then copies the
    /// old record, with the chain tag that preceded it, over the new one where the index points.
    static func plantOlderVictimWhereTheIndexPoints(_ dir: TemporaryDirectory) throws {
        let vault = try open(dir)
        for i in 0..<20 { try vault.upsert(service: "s", account: "filler\(i)", content("\(i)")) }
        let before = try fileBytes(dir.vault)
        try vault.upsert(service: "s", account: "victim", content("old balance"))
        let oldRecord = Array(try fileBytes(dir.vault)[before.count...])
        for i in 0..<20 { try vault.upsert(service: "s", account: "more\(i)", content("\(i)")) }
        try vault.upsert(service: "s", account: "victim", content("new balance"))
        for i in 0..<20 { try vault.upsert(service: "s", account: "after\(i)", content("\(i)")) }
        let store = try #require(Mirror(reflecting: try open(dir)).descendant("store") as? VaultStore)
        let key = try store.codec.indexKey(.init(service: "s", account: "victim"))
        let entry = try #require(try store.index?.entries(withPrefix: key).first)
        var bytes = try fileBytes(dir.vault)
        bytes.replaceSubrange((Int(entry.offset) - 16)..<Int(entry.offset), with: before.suffix(16))
        bytes.replaceSubrange(Int(entry.offset)..<(Int(entry.offset) + oldRecord.count), with: oldRecord)
        try writeBytes(bytes, to: dir.vault)
    }

    @Test func anOlderVersionOfAnItemPutWhereTheIndexPointsIsRejected() throws {
        let dir = try TemporaryDirectory()
        try Self.plantOlderVictimWhereTheIndexPoints(dir)
        let error = vaultError { _ = try Self.open(dir).get(service: "s", account: "victim") }
        #expect(error?.isIntegrity == true, "\(String(describing: error))")
    }

    @Test func compactionWritesTheNewFilesIndexAndOldVaultsGetOneOnOpen() throws {
        let dir = try TemporaryDirectory()
        // Written with the default thresholds: no index, as a vault written before indexes.
        let plain = try Self.open(dir, testConfiguration())
        for i in 0..<30 { try plain.upsert(service: "s", account: "k\(i)", content("\(i)")) }
        #expect(!FileManager.default.fileExists(atPath: Self.indexURL(dir).path))
        let indexed = try Self.open(dir)
        #expect(FileManager.default.fileExists(atPath: Self.indexURL(dir).path), "made on open")
        #expect(try indexed.items(service: "s").count == 30)
        // Compaction gives the file a new id; its index follows.
        try indexed.compact()
        let store = try #require(Mirror(reflecting: try Self.open(dir)).descendant("store") as? VaultStore)
        #expect(store.index != nil)
        #expect(try store.items(service: "s").count == 30)
    }

    @Test func handlesKeepAgreeingWhileTheIndexIsRewrittenAndTheFileCompacted() throws {
        let dir = try TemporaryDirectory()
        let a = try Self.open(dir, Self.configuration(compaction: 24))
        let b = try Self.open(dir, Self.configuration(compaction: 24))
        for i in 0..<200 {
            let writer = i % 2 == 0 ? a : b
            let reader = i % 2 == 0 ? b : a
            try writer.upsert(service: "s", account: "k\(i % 17)", content("\(i)"))
            #expect(text(try reader.get(service: "s", account: "k\(i % 17)")) == "\(i)")
            if i % 23 == 22 { try writer.delete(service: "s", account: "k\(i % 17)") }
        }
        #expect(try a.allItems() == b.allItems())
        #expect(try a.allItems() == Self.open(dir, testConfiguration()).allItems())
    }
}
