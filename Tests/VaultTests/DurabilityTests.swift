import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import Vault

@Suite struct DurabilityTests {
    @Test func anFsyncErrorIsSurfacedAndNeverRetriedIntoSuccess() throws {
        let dir = try TemporaryDirectory()
        // Create the vault (key file, header) with a healthy disk first.
        _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        // From the fourth sync on, every sync fails with EIO, as a dying disk does.
        let fs = FaultInjectingFileSystem()
        fs.fail(.synchronize, onCall: 4, with: .ioError, repeating: true)
        let vault = try Vault(
            at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration(fileSystem: fs))
        for i in 0..<3 { try vault.upsert(service: "s", account: "a\(i)", content("\(i)")) }
        let error = vaultError { try vault.upsert(service: "s", account: "a3", content("3")) }
        #expect(error == .notDurable(path: dir.vault.path, operation: "fdatasync", errno: Errno.ioError.rawValue))
        #expect(error?.description.contains("not acknowledged") == true)
        let syncsAfterFailure = fs.calls(of: .synchronize)
        // The handle refuses further work instead of trying again.
        for _ in 0..<3 {
            guard case .handleUnusable = vaultError({ try vault.upsert(service: "s", account: "a3", content("3")) })
            else {
                Issue.record("expected handleUnusable")
                return
            }
        }
        #expect(fs.calls(of: .synchronize) == syncsAfterFailure)
        // A fresh handle holds every acknowledged write, and not the failed one.
        let reopened = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        #expect(try reopened.allItems().map(\.account) == ["a0", "a1", "a2"])
    }

    @Test func aFailedCompactionFailsTheWriteAndKeepsTheOldFile() throws {
        let dir = try TemporaryDirectory()
        let healthy = try Vault(
            at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration(compactionMinimumGarbage: 4))
        for i in 0..<6 { try healthy.upsert(service: "s", account: "a", content("\(i)")) }
        let before = try fileBytes(dir.vault)
        // The next write must compact first (5 superseded > 4); its temporary file's sync fails.
        let fs = FaultInjectingFileSystem()
        fs.fail(.synchronize, onCall: 1, with: .ioError, repeating: true)
        let vault = try Vault(
            at: dir.vault, key: .keyFile(dir.keyFile),
            configuration: testConfiguration(fileSystem: fs, compactionMinimumGarbage: 4))
        guard case .notDurable = vaultError({ try vault.upsert(service: "s", account: "a", content("new")) }) else {
            Issue.record("expected notDurable")
            return
        }
        #expect(try fileBytes(dir.vault) == before)
        #expect(!FileManager.default.fileExists(atPath: dir.vault.path + ".tmp"))
        #expect(text(try healthy.get(service: "s", account: "a")) == "5")
    }

    @Test func compactionKeepsEveryItemAndBoundsTheFile() throws {
        let dir = try TemporaryDirectory()
        let vault = try Vault(
            at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration(compactionMinimumGarbage: 16))
        let expected = try churn(vault, steps: 300, accounts: 7, deleteEvery: 13, value: { "\($0)" }) {
            let records = try vault.status().records
            #expect(records <= 7 + 16 + 1)
        }
        let reopened = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        let actual = Dictionary(uniqueKeysWithValues: try reopened.allItems().map { ($0.account, text($0) ?? "") })
        #expect(actual == expected)
        #expect(try vault.allItems() == reopened.allItems())
    }

    @Test func aTornTailIsDroppedOnOpenAndCutBeforeTheNextWrite() throws {
        let dir = try TemporaryDirectory()
        let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        try vault.upsert(service: "s", account: "a", content("kept"))
        let good = try fileBytes(dir.vault)
        try vault.upsert(service: "s", account: "b", content("torn"))
        let full = try fileBytes(dir.vault)
        try writeBytes(Array(full[..<(good.count + 30)]), to: dir.vault)

        let reopened = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        #expect(try reopened.allItems().map(\.account) == ["a"])
        // Reading never changes the file.
        #expect(try fileBytes(dir.vault).count == good.count + 30)
        try reopened.upsert(service: "s", account: "c", content("after"))
        let third = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        #expect(try third.allItems().map(\.account) == ["a", "c"])
    }

    @Test func aLongLivedHandleSeesOtherHandlesWritesAndCompactions() throws {
        let dir = try TemporaryDirectory()
        let config = testConfiguration(compactionMinimumGarbage: 8)
        let a = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: config)
        let b = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: config)
        try a.add(service: "s", account: "x", content("1"))
        #expect(text(try b.get(service: "s", account: "x")) == "1")
        // b updates; a must not add a duplicate, and must see b's value.
        try b.update(service: "s", account: "x", content("2"))
        #expect(
            vaultError { try a.add(service: "s", account: "x", content("3")) }
                == .duplicateItem(.init(service: "s", account: "x")))
        #expect(text(try a.get(service: "s", account: "x")) == "2")
        // Enough writes through b to compact (the file is replaced); a follows.
        for i in 0..<40 { try b.upsert(service: "s", account: "x", content("b\(i)")) }
        #expect(try b.status().records < 40)
        #expect(text(try a.get(service: "s", account: "x")) == "b39")
        try a.upsert(service: "s", account: "y", content("from a"))
        #expect(text(try b.get(service: "s", account: "y")) == "from a")
        // A key change by one handle does not disturb the other.
        try b.changeKey(to: .passphrase(.init(Array("p".utf8))))
        try a.upsert(service: "s", account: "z", content("still fine"))
        #expect(try b.allItems().count == 3)
    }

    @Test func manyThreadsOnOneHandleLoseNoIncrement() throws {
        let dir = try TemporaryDirectory()
        let vault = try Vault(
            at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration(compactionMinimumGarbage: 32))
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<50 {
                _ = try? vault.modify(service: "c", account: "n") { current in
                    let value = current.flatMap { Int(String(decoding: $0.data, as: UTF8.self)) } ?? 0
                    return .put(content("\(value + 1)"))
                }
            }
        }
        #expect(text(try vault.get(service: "c", account: "n")) == "200")
    }
}
