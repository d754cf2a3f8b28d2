import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import Vault

@Suite struct KeychainSemanticsTests {
    @Test func addGetUpdateUpsertDeleteQuery() throws {
        let dir = try TemporaryDirectory()
        let clock = ManualClock()
        let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration(clock: clock))

        let added = try vault.add(
            service: "purchases", account: "com.example.gems",
            content("10", label: "Gems", attributes: ["kind": "consumable"]))
        #expect(added.created == clock.now)
        #expect(added.modified == clock.now)
        #expect(try vault.get(service: "purchases", account: "com.example.gems") == added)
        #expect(try vault.get(service: "purchases", account: "nope") == nil)

        #expect(
            vaultError { try vault.add(service: "purchases", account: "com.example.gems", content("11")) }
                == .duplicateItem(.init(service: "purchases", account: "com.example.gems")))

        clock.advance(by: 60)
        let updated = try vault.update(service: "purchases", account: "com.example.gems", content("12", label: "Gems!"))
        #expect(updated.created == added.created)
        #expect(updated.modified == clock.now)
        #expect(text(updated) == "12")
        #expect(updated.label == "Gems!")
        #expect(updated.attributes.isEmpty)

        #expect(
            vaultError { try vault.update(service: "purchases", account: "missing", content("1")) }
                == .itemNotFound(.init(service: "purchases", account: "missing")))
        #expect(
            vaultError { try vault.delete(service: "purchases", account: "missing") }
                == .itemNotFound(.init(service: "purchases", account: "missing")))

        try vault.upsert(service: "purchases", account: "b", content("b"))
        try vault.upsert(service: "purchases", account: "a", content("a"))
        try vault.upsert(service: "other", account: "a", content("x"))
        try vault.upsert(service: "purchases", account: "a", content("a2"))
        #expect(try vault.items(service: "purchases").map(\.account) == ["a", "b", "com.example.gems"])
        #expect(try vault.items(service: "other").map(text) == ["x"])
        #expect(try vault.items(service: "none").isEmpty)

        try vault.delete(service: "purchases", account: "b")
        #expect(try vault.get(service: "purchases", account: "b") == nil)

        // Everything survives a reopen, dates included (millisecond precision).
        let reopened = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        #expect(try reopened.allItems() == vault.allItems())
        #expect(try reopened.allItems().count == 3)
    }

    @Test func errorsSayWhatToDo() {
        let id = VaultItem.ID(service: "s", account: "a")
        #expect(VaultError.duplicateItem(id).description.contains("use update or upsert"))
        #expect(VaultError.itemNotFound(id).description.contains("use add or upsert"))
        #expect(
            VaultError.insecurePermissions(path: "/x/v", mode: 0o100644, fix: "chmod 600 /x/v").description
                == "/x/v is open to other users (mode 644); run `chmod 600 /x/v` and try again.")
    }

    @Test func modifyIsReadDecideWrite() throws {
        let dir = try TemporaryDirectory()
        let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        let first = try vault.modify(service: "c", account: "n") { current in
            #expect(current == nil)
            return .put(content("1"))
        }
        #expect(text(first) == "1")
        let kept = try vault.modify(service: "c", account: "n") { _ in .keep }
        #expect(kept == first)
        #expect(try vault.status().records == 1)
        struct Refused: Error {}
        #expect(throws: Refused.self) { try vault.modify(service: "c", account: "n") { _ in throw Refused() } }
        #expect(try vault.modify(service: "c", account: "n") { _ in .delete } == nil)
        #expect(try vault.get(service: "c", account: "n") == nil)
    }

    @Test func itemsOverTheLimitsAreRefusedBeforeWriting() throws {
        let dir = try TemporaryDirectory()
        let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        let tooMany = Dictionary(uniqueKeysWithValues: (0...VaultFormat.maxAttributes).map { ("k\($0)", "v") })
        let error = vaultError { try vault.add(service: "s", account: "a", content("x", attributes: tooMany)) }
        guard case .invalidItem(_, let reason) = error else {
            Issue.record("expected invalidItem, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("attributes"))
        let long = String(repeating: "x", count: 70_000)
        #expect(vaultError { try vault.add(service: long, account: "a", content("x")) } != nil)
        #expect(try vault.status().records == 0)
        // Unicode round-trips.
        try vault.add(service: "ünï", account: "コード", content("🔑", label: "ラベル", attributes: ["é": "ß"]))
        let reopened = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        #expect(try reopened.get(service: "ünï", account: "コード")?.attributes == ["é": "ß"])
    }
}

@Suite struct BatchTests {
    @Test func upsertAllWritesManyItemsWithOneSync() throws {
        let dir = try TemporaryDirectory()
        _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        let fs = FaultInjectingFileSystem()  // counts the syncs, fails none
        let vault = try Vault(
            at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration(fileSystem: fs))
        try vault.add(service: "bulk", account: "k0001", content("old"))
        let created = try #require(try vault.get(service: "bulk", account: "k0001")).created
        let syncsBefore = fs.calls(of: .synchronize)
        let entries = Dictionary(
            uniqueKeysWithValues: (0..<500).map { (String(format: "k%04d", $0), content("v\($0)")) })
        let stored = try vault.upsertAll(service: "bulk", entries)
        #expect(fs.calls(of: .synchronize) == syncsBefore + 1)
        #expect(stored.count == 500)
        #expect(stored[1].created == created)
        let reopened = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        let items = try reopened.items(service: "bulk")
        #expect(items.count == 500)
        #expect(items.map(text) == (0..<500).map { "v\($0)" })
        // One invalid entry: nothing is written.
        var bad = entries
        bad["zz"] = content("x", attributes: Dictionary(uniqueKeysWithValues: (0...64).map { ("a\($0)", "") }))
        #expect(throws: VaultError.self) { try vault.upsertAll(service: "bulk2", bad) }
        #expect(try vault.items(service: "bulk2").isEmpty)
    }
}
