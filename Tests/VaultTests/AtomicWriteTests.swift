import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import Vault

/// `Vault.transact`: several items in one durable write, kept all or none by a crash.
@Suite(.timeLimit(.minutes(10))) struct AtomicWriteTests {
    @Test func aTransactionWritesEveryChangeWithOneSync() throws {
        let dir = try TemporaryDirectory()
        _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        let fs = FaultInjectingFileSystem()
        let vault = try Vault(
            at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration(fileSystem: fs))
        try vault.upsert(service: "s", account: "gone", content("x"))
        let syncs = fs.calls(of: .synchronize)
        let seen = try vault.transact { batch -> String? in
            batch.put(service: "s", account: "a", content("1"))
            batch.put(service: "s", account: "b", content("2"))
            batch.delete(service: "s", account: "gone")
            #expect(try batch.get(service: "s", account: "gone") == nil)
            #expect(try batch.items(service: "s").map(\.account) == ["a", "b"])
            return text(try batch.get(service: "s", account: "a"))
        }
        #expect(seen == "1")
        #expect(fs.calls(of: .synchronize) == syncs + 1)
        let reopened = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        #expect(try reopened.items(service: "s").map(text) == ["1", "2"])
        // The marker that opens the write is the vault's own, not an item.
        #expect(try reopened.allItems().count == 2)
        #expect(try reopened.status().items == 2)
    }

    @Test func aThrowingTransactionWritesNothingAndReservedServicesAreRefused() throws {
        let dir = try TemporaryDirectory()
        let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try vault.transact { batch in
                batch.put(service: "s", account: "a", content("1"))
                throw Stop()
            }
        }
        #expect(try vault.allItems().isEmpty)
        guard
            case .invalidItem = vaultError({
                try vault.upsert(service: VaultFormat.batchService, account: "", content("x"))
            })
        else {
            Issue.record("a reserved service was accepted")
            return
        }
    }

    @Test func everyTruncationOfAnAtomicWriteKeepsAllOrNone() throws {
        let dir = try TemporaryDirectory()
        let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        try vault.upsert(service: "s", account: "a", content("0"))
        let before = try fileBytes(dir.vault)
        try vault.transact { batch in
            batch.put(service: "s", account: "a", content("1"))
            batch.put(service: "s", account: "b", content("1"))
        }
        let after = try fileBytes(dir.vault)
        for length in before.count...after.count {
            try writeBytes(Array(after[..<length]), to: dir.vault)
            let items = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
                .allItems().map(text)
            #expect(items == (length == after.count ? ["1", "1"] : ["0"]), "length \(length)")
        }
        // A writer cuts the torn write off before appending.
        try writeBytes(Array(after[..<(after.count - 10)]), to: dir.vault)
        let writer = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        try writer.upsert(service: "s", account: "c", content("2"))
        let reopened = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        #expect(try reopened.allItems().map(\.account) == ["a", "c"])
    }

    /// `vault-torture batch`: SIGKILL at random moments and in the middle of a write, with the
    /// index rewritten every few records and the file compacted, never splits a write.
    @Test func sigkillNeverSplitsAnAtomicWrite() throws {
        var rng = SeededGenerator(state: 0x5EED_0004)
        for run in 0..<8 {
            let dir = try TemporaryDirectory()
            let writes = 300
            let environment: [String: String] =
                run % 2 == 0
                ? [:]
                : [
                    "STOREFRONT_FAULT": "mid-vault-write",
                    "STOREFRONT_FAULT_AT": "\(Int.random(in: 1..<writes, using: &rng))",
                ]
            let killAfter = run % 2 == 0 ? Int.random(in: 1..<writes, using: &rng) : nil
            let (acked, _) = try TortureProcess.runAndKill(
                ["batch", dir.vault.path, "\(writes)"], killAfter: killAfter, environment: environment)
            let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
            let pair = try vault.items(service: "pair").map { text($0) ?? "" }
            let written = try vault.items(service: "written").map { Int(text($0) ?? "") ?? -1 }
            // Every acknowledged write is there, at most one more, and each whole.
            #expect(written == Array(0..<written.count), "run \(run)")
            #expect(
                written.count == acked.count || written.count == acked.count + 1,
                "run \(run): \(acked.count) acked, \(written.count) kept")
            if let last = written.last {
                #expect(pair == ["\(last)", "\(last)"], "run \(run)")
            } else {
                #expect(pair.isEmpty, "run \(run)")
            }
        }
    }
}
