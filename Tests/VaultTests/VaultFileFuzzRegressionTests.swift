import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import Vault

/// Replays what the vault-file fuzzer found (`Fuzz/seeds/vault-file-found/`, over the seed vault
/// in `Fuzz/seeds/vault-file/`; `Fuzz/VaultFileFuzz.swift` says what an input is): the vault
/// opens and answers as it does with its real index, since an index is only a cache.
@Suite struct VaultFileFuzzRegressionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let seed = repository.appendingPathComponent("Fuzz/seeds/vault-file")
    static let found = repository.appendingPathComponent("Fuzz/seeds/vault-file-found")

    /// The seed vault copied into `dir` with `index` as its index (the real one when nil), opened
    /// (read-only when asked); every item, in order.
    static func items(in dir: TemporaryDirectory, index: [UInt8]?, readOnly: Bool = false) throws -> [VaultItem] {
        let directory = dir.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for name in ["vault.key", "vault.sfv", "vault.sfv.idx"] {
            let bytes =
                name == "vault.sfv.idx" && index != nil
                ? Data(index!) : try Data(contentsOf: seed.appendingPathComponent(name))
            try bytes.write(to: directory.appendingPathComponent(name))
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o600], ofItemAtPath: directory.appendingPathComponent(name).path)
        }
        let vault = try Vault(
            at: directory.appendingPathComponent("vault.sfv"),
            key: .keyFile(directory.appendingPathComponent("vault.key")),
            configuration: VaultConfiguration(
                clock: ManualClock(), indexMinimumRecords: 64, indexTailRecords: 32, readOnly: readOnly))
        return try vault.allItems()
    }

    /// Every found input (a selector byte, then the index) read as the real vault reads.
    @Test func everyFoundIndexGivesTheRealVaultsItems() throws {
        let expected = try Self.items(in: try TemporaryDirectory(), index: nil, readOnly: true)
        #expect(expected.count > 200)
        let inputs = try FileManager.default.contentsOfDirectory(atPath: Self.found.path).filter {
            !$0.hasSuffix(".md")
        }.sorted()
        #expect(!inputs.isEmpty)
        for name in inputs {
            let input = Array(try Data(contentsOf: Self.found.appendingPathComponent(name)))
            try #require(input[0] & 1 == 0, "\(name) is an index")
            for readOnly in [false, true] {
                #expect(
                    try Self.items(in: try TemporaryDirectory(), index: Array(input.dropFirst()), readOnly: readOnly)
                        == expected, "\(name)")
            }
        }
    }

    /// Review of the reader, confirmed on the fuzz build: an index header claiming 2^26 pages made
    /// opening read 1 GiB of page keys before authenticating anything (an allocation sized by the
    /// file's claim). Now the file's size bounds the claim first, and the index is ignored.
    @Test func anIndexClaimingAHugePageCountIsIgnoredWithoutReadingIt() throws {
        let input = Array(
            try Data(contentsOf: Self.found.appendingPathComponent("index-header-claims-huge-page-count.bin")))
        let dir = try TemporaryDirectory()
        let directory = dir.url.appendingPathComponent("data")
        _ = try Self.items(in: dir, index: nil, readOnly: true)
        try Data(input.dropFirst()).write(to: directory.appendingPathComponent("vault.sfv.idx"))
        let codec = try VaultStore(
            path: directory.appendingPathComponent("vault.sfv").path,
            key: .keyFile(directory.appendingPathComponent("vault.key")),
            configuration: VaultConfiguration(clock: ManualClock(), readOnly: true)
        ).codec
        let header = Array(
            try Data(contentsOf: directory.appendingPathComponent("vault.sfv")).prefix(VaultFormat.headerLength))
        let (parsed, _) = try VaultHeader.parse(header[...], path: "vault.sfv")
        let fs = FaultInjectingFileSystem()
        #expect(
            VaultIndex.open(
                directory.appendingPathComponent("vault.sfv.idx").path, fileID: parsed.fileID, codec: codec, fs: fs)
                == nil)
        #expect(fs.calls(of: .read) == 1, "only the fixed header is read, not the 1 GiB it claims")
    }
}
