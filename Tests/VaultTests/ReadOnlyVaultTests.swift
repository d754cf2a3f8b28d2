import Foundation
import SystemIO
import TestSupport
import Testing

@testable import Vault

/// A vault opened read-only (`VaultConfiguration.readOnly`, for a directory this process may
/// not write): it reads every item a writer made durable, follows that writer as the lock-free
/// readers do (new records, a compaction's new file), never writes a byte (no lock file, no
/// index, no torn tail cut) and refuses every write with `EROFS`.
@Suite struct ReadOnlyVaultTests {
    static func readOnly(_ configuration: VaultConfiguration = IndexTests.configuration()) -> VaultConfiguration {
        var configuration = configuration
        configuration.readOnly = true
        return configuration
    }

    /// Every file in the vault's directory with its bytes.
    static func files(_ dir: TemporaryDirectory) throws -> [String: [UInt8]] {
        let directory = dir.vault.deletingLastPathComponent()
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = try fileBytes(directory.appendingPathComponent(name))
        }
        return files
    }

    @Test func readsWhatWasWrittenAndWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let expected = try IndexTests.populated(dir)
        // Records past the index, and a torn record after the last whole one.
        let writer = try IndexTests.open(dir)
        try writer.upsert(service: "s", account: "tail", content("after the index"))
        let whole = try fileBytes(dir.vault).count
        // The last record cut in half, as a crash mid-append leaves it.
        try writer.upsert(service: "s", account: "torn", content("never whole"))
        let bytes = try fileBytes(dir.vault)
        try writeBytes(Array(bytes[..<(whole + (bytes.count - whole) / 2)]), to: dir.vault)
        try FileManager.default.removeItem(atPath: dir.vault.path + ".lock")
        let before = try Self.files(dir)

        let reader = try IndexTests.open(dir, Self.readOnly())
        var items: [String: String] = [:]
        for item in try reader.items(service: "s") { items[item.account] = text(item) }
        #expect(items == expected.merging(["tail": "after the index"]) { $1 })
        #expect(try reader.status().bytes == UInt64(whole))
        let refused = vaultError { try reader.upsert(service: "s", account: "new", content("x")) }
        #expect(
            refused
                == .io(
                    path: dir.vault.path, operation: "write (the vault was opened read-only)",
                    errno: Errno.readOnlyFileSystem.rawValue))
        #expect(vaultError { try reader.compact() } == refused)
        #expect(try Self.files(dir) == before, "a read-only vault changed its directory")
    }

    @Test func followsAWriterAcrossAppendsAndACompaction() throws {
        let dir = try TemporaryDirectory()
        let writer = try IndexTests.open(dir, IndexTests.configuration(compaction: 8))
        try writer.upsert(service: "s", account: "a", content("1"))
        let reader = try IndexTests.open(dir, Self.readOnly())
        for round in 2...40 {
            try writer.upsert(service: "s", account: "a", content("\(round)"))
            try writer.upsert(service: "s", account: "b\(round % 5)", content("\(round)"))
            // Never a torn state: the reader sees exactly what the writer made durable.
            #expect(text(try reader.get(service: "s", account: "a")) == "\(round)")
            #expect(try reader.items(service: "s").count == min(round - 1, 5) + 1)
        }
        #expect(try reader.status().items == 6)
    }

    @Test func thereIsNoVaultToReadUntilAWriterMakesOne() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.vault.deletingLastPathComponent(), withIntermediateDirectories: true)
        let error = vaultError { _ = try IndexTests.open(dir, Self.readOnly()) }
        #expect(
            error
                == .io(
                    path: dir.vault.path, operation: "open (read-only: there is no vault to read)",
                    errno: Errno.noSuchFile.rawValue))
        #expect(try Self.files(dir).isEmpty)
    }
}
