import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import Vault

/// `Vault.forEachItem(service:_:)`, what a long history's listing reads: the items `items`
/// gives, read in file order in large pieces (not three reads an item), each authenticated as
/// `get` authenticates it.
@Suite struct ListingTests {
    static func listed(_ vault: Vault, _ service: String) throws -> [VaultItem] {
        var items: [VaultItem] = []
        try vault.forEachItem(service: service) { items.append($0) }
        return items.sorted { $0.account < $1.account }
    }

    static func store(_ vault: Vault) throws -> VaultStore {
        try #require(Mirror(reflecting: vault).descendant("store") as? VaultStore)
    }

    /// The index entries of a `populated` vault in `dir` whose records are still current (not
    /// replaced or deleted after the index was written), in file order.
    static func currentIndexEntries(_ dir: TemporaryDirectory) throws -> [VaultIndex.Entry] {
        _ = try IndexTests.populated(dir)
        let store = try store(try IndexTests.open(dir))
        let replaced = try Set(
            (Array(store.log.items.keys) + Array(store.log.deleted)).map { try store.codec.indexKey($0) })
        return try #require(try store.index?.allEntries().filter { !replaced.contains($0.key) })
    }

    @Test func aListingHandsOverWhatItemsGivesFromTheIndexAndTheRecordsAfterIt() throws {
        let dir = try TemporaryDirectory()
        let expected = try IndexTests.populated(dir)
        let vault = try IndexTests.open(dir)
        let store = try Self.store(vault)
        #expect(store.index != nil, "opened from the index")
        #expect(store.log.tailRecords > 0, "some records follow the index")
        // A put and a delete after the index, over items the index names.
        try vault.upsert(service: "s", account: "k1", content("after"))
        try vault.delete(service: "s", account: "k2")
        var now = expected
        now["k1"] = "after"
        now["k2"] = nil
        let listed = try Self.listed(vault, "s")
        #expect(listed == (try vault.items(service: "s")))
        #expect(Dictionary(uniqueKeysWithValues: listed.map { ($0.account, text($0) ?? "") }) == now)
        #expect(try Self.listed(vault, "other").map(\.account) == ["x"])
        #expect(try Self.listed(vault, "none").isEmpty)
    }

    @Test func aVaultWithoutAnIndexListsFromMemory() throws {
        let dir = try TemporaryDirectory()
        let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        for i in 0..<12 { try vault.upsert(service: "s", account: "k\(i)", content("v\(i)")) }
        try vault.upsert(service: "t", account: "k0", content("other service"))
        let reopened = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        #expect(try Self.store(reopened).index == nil)
        #expect(try Self.listed(reopened, "s") == (try reopened.items(service: "s")))
        #expect(try Self.listed(reopened, "s").count == 12)
    }

    @Test func aListingReadsTheFileInLargePiecesNotItemByItem() throws {
        let dir = try TemporaryDirectory()
        let writer = try IndexTests.open(dir)
        try writer.upsertAll(
            service: "s",
            Dictionary(uniqueKeysWithValues: (0..<400).map { ("k\($0)", content(String(repeating: "x", count: 300))) }))
        let counting = FaultInjectingFileSystem()
        let vault = try IndexTests.open(dir, IndexTests.configuration(fileSystem: counting))
        #expect(try Self.store(vault).index != nil)
        let before = counting.calls(of: .read)
        #expect(try Self.listed(vault, "s").count == 400)
        // The index's pages (4 of them) and one window of the records; item by item it was 1,200.
        #expect(counting.calls(of: .read) - before <= 8, "\(counting.calls(of: .read) - before) reads")
    }

    @Test func recordsLargerThanTheWindowAreReadWhole() throws {
        let dir = try TemporaryDirectory()
        let vault = try IndexTests.open(dir)
        let big = (0..<3).map { index in Data((0..<(5 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }) }
        for i in 0..<20 { try vault.upsert(service: "s", account: "small\(i)", content("v\(i)")) }
        for (index, data) in big.enumerated() {
            try vault.upsert(service: "s", account: "big\(index)", VaultItemContent(data: data))
        }
        for i in 20..<40 { try vault.upsert(service: "s", account: "small\(i)", content("v\(i)")) }
        let reopened = try IndexTests.open(dir)
        #expect(try Self.store(reopened).index != nil)
        let listed = try Self.listed(reopened, "s")
        #expect(listed.count == 43)
        for (index, data) in big.enumerated() { #expect(listed.first { $0.account == "big\(index)" }?.data == data) }
    }

    @Test func aDamagedRecordTheIndexNamesStopsTheListing() throws {
        let dir = try TemporaryDirectory()
        let entry = try #require(try Self.currentIndexEntries(dir).first)
        var bytes = try fileBytes(dir.vault)
        bytes[Int(entry.offset) + 60] ^= 1
        try writeBytes(bytes, to: dir.vault)
        let reopened = try IndexTests.open(dir)
        var seen = 0
        let error = vaultError { try reopened.forEachItem(service: "s") { _ in seen += 1 } }
        #expect(error?.isIntegrity == true, "\(String(describing: error))")
        #expect(error?.description.contains("byte \(entry.offset)") == true, "\(String(describing: error))")
        #expect(seen < 40)
    }

    @Test func anOlderRecordOfTheItemWhereTheIndexPointsStopsTheListing() throws {
        let dir = try TemporaryDirectory()
        try IndexTests.plantOlderVictimWhereTheIndexPoints(dir)
        let error = vaultError { _ = try Self.listed(try IndexTests.open(dir), "s") }
        #expect(error?.isIntegrity == true, "\(String(describing: error))")
    }

    @Test func whatTheBodyThrowsStopsTheListingAndTheVaultStaysUsable() throws {
        struct Enough: Error {}
        let dir = try TemporaryDirectory()
        _ = try IndexTests.populated(dir)
        let vault = try IndexTests.open(dir)
        var seen = 0
        #expect(throws: Enough.self) {
            try vault.forEachItem(service: "s") { _ in
                seen += 1
                if seen == 3 { throw Enough() }
            }
        }
        #expect(seen == 3)
        try vault.upsert(service: "s", account: "later", content("written"))
        #expect(text(try vault.get(service: "s", account: "later")) == "written")
    }
}
