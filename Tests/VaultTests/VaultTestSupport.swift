import Crypto
import Foundation
import Glibc
import TestSupport
@testable import Vault

extension TemporaryDirectory {
    /// Where the tests put their vault: `data/vault.sfv` inside the directory.
    var vault: URL { url.appendingPathComponent("data/vault.sfv") }
    /// The key file beside `vault`.
    var keyFile: URL { VaultKey.defaultKeyFile(for: vault) }
}

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var now = Date(timeIntervalSince1970: 1_780_000_000)

    func read() -> Date { lock.withLock { now } }

    func advance(_ seconds: TimeInterval) { lock.withLock { now += seconds } }
}

/// scrypt parameters small enough for a fast suite (the format is the same).
let testScrypt = Scrypt.Parameters(log2N: 10, r: 8, p: 1, maxMemory: 2 << 20)

func testConfiguration(
    clock: TestClock = TestClock(), fileSystem: any VaultFileSystem = PosixFileSystem(),
    compactionMinimumGarbage: Int = 1024
) -> VaultConfiguration {
    VaultConfiguration(
        clock: { clock.read() }, fileSystem: fileSystem, newScryptParameters: testScrypt,
        compactionMinimumGarbage: compactionMinimumGarbage)
}

func content(_ text: String, label: String = "", attributes: [String: String] = [:]) -> VaultItemContent {
    VaultItemContent(data: Data(text.utf8), label: label, attributes: attributes)
}

func text(_ item: VaultItem?) -> String? { item.map { String(decoding: $0.data, as: UTF8.self) } }

func fileBytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

/// Replaces a file's content in place (plain write, no fsync: tests do not need durability here).
func writeBytes(_ bytes: [UInt8], to url: URL) throws {
    let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
}

func mode(_ url: URL) -> UInt32 {
    var st = stat()
    return lstat(url.path, &st) == 0 ? UInt32(st.st_mode) & 0o7777 : 0
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
