import Crypto
import Foundation
import StoreTesting
import SystemIO
import TestSupport

@testable import Vault

extension TemporaryDirectory {
    /// Where the tests put their vault: `data/vault.sfv` inside the directory.
    var vault: URL { url.appendingPathComponent("data/vault.sfv") }
    /// The key file beside `vault`.
    var keyFile: URL { VaultKey.defaultKeyFile(for: vault) }
}

/// scrypt parameters small enough for a fast suite (the format is the same).
let testScrypt = Scrypt.Parameters(log2N: 10, r: 8, p: 1, maxMemory: 2 << 20)

func testConfiguration(
    clock: ManualClock = ManualClock(), fileSystem: any FileSystem = POSIXFileSystem(),
    compactionMinimumGarbage: Int = 1024
) -> VaultConfiguration {
    VaultConfiguration(
        clock: clock, fileSystem: fileSystem, newScryptParameters: testScrypt,
        compactionMinimumGarbage: compactionMinimumGarbage)
}

func content(_ text: String, label: String = "", attributes: [String: String] = [:]) -> VaultItemContent {
    VaultItemContent(data: Data(text.utf8), label: label, attributes: attributes)
}

/// Writes `steps` changes to service `s` of `vault`, one by one: step `i` deletes account
/// `k(i % accounts)` when `i % deleteEvery == deleteEvery - 1` and upserts it with `value(i)`
/// otherwise; `afterEach` runs after every step. The items the vault should then hold.
func churn(
    _ vault: Vault, steps: Int, accounts: Int, deleteEvery: Int, value: (Int) -> String,
    afterEach: () throws -> Void = {}
) throws -> [String: String] {
    var expected: [String: String] = [:]
    for i in 0..<steps {
        let account = "k\(i % accounts)"
        if i % deleteEvery == deleteEvery - 1 {
            if expected[account] != nil { try vault.delete(service: "s", account: account) }
            expected[account] = nil
        } else {
            try vault.upsert(service: "s", account: account, content(value(i)))
            expected[account] = value(i)
        }
        try afterEach()
    }
    return expected
}

func text(_ item: VaultItem?) -> String? { item.map { String(decoding: $0.data, as: UTF8.self) } }

func fileBytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

/// Replaces a file's content in place (plain write, no fsync: tests do not need durability here).
func writeBytes(_ bytes: [UInt8], to url: URL) throws {
    let fs = POSIXFileSystem()
    let file = try fs.open(url.path, [.write, .create, .truncate])
    defer { fs.close(file) }
    try fs.write(file, bytes)
}

func mode(_ url: URL) -> UInt32 {
    let status = try? POSIXFileSystem().status(atPath: url.path, followingLinks: false)
    return (status ?? nil).map { $0.mode & 0o7777 } ?? 0
}

/// The error a throwing call produced, as a `VaultError` (nil if it did not throw one).
func vaultError(_ body: () throws -> Void) -> VaultError? {
    do {
        try body()
        return nil
    } catch let error as VaultError {
        return error
    } catch {
        return nil
    }
}

extension VaultError {
    var isIntegrity: Bool {
        if case .integrity = self { return true }
        return false
    }
}
