import Crypto
import Foundation
import TestSupport
import Testing

@testable import Vault

@Suite struct KeyTests {
    @Test func keyFileIsCreatedOnFirstUseWithMode0600() throws {
        let dir = try TemporaryDirectory()
        #expect(!FileManager.default.fileExists(atPath: dir.keyFile.path))
        let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        try vault.add(service: "s", account: "a", content("x"))
        let key = try fileBytes(dir.keyFile)
        #expect(key.count == 40)
        #expect(Array(key.prefix(8)) == VaultFormat.keyFileMagic)
        #expect(mode(dir.keyFile) == 0o600)
        #expect(mode(dir.vault) == 0o600)
        #expect(mode(dir.vault.deletingLastPathComponent()) == 0o700)
        // The key is not in the vault, and the secret is not in the vault in clear.
        let vaultBytes = try fileBytes(dir.vault)
        #expect(!contains(vaultBytes, Array(key[8...])))
        #expect(!contains(vaultBytes, Array("service".utf8)))
        // A second vault beside it with the same key file reuses the key.
        _ = try Vault(
            at: dir.vault.deletingLastPathComponent().appendingPathComponent("b.sfv"), key: .keyFile(dir.keyFile),
            configuration: testConfiguration())
        #expect(try fileBytes(dir.keyFile) == key)
    }

    @Test func missingKeyFileForAnExistingVaultIsAnErrorNotANewKey() throws {
        let dir = try TemporaryDirectory()
        _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        try FileManager.default.removeItem(at: dir.keyFile)
        let error = vaultError {
            _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        }
        #expect(error == .keyFileMissing(path: dir.keyFile.path, vault: dir.vault.path))
        #expect(!FileManager.default.fileExists(atPath: dir.keyFile.path))
    }

    @Test func passphraseVaultAndKeyKindMismatch() throws {
        let dir = try TemporaryDirectory()
        let vault = try Vault(
            at: dir.vault, key: .passphrase(SecureBytes(Array("hunter2".utf8))), configuration: testConfiguration())
        try vault.add(service: "s", account: "a", content("secret"))
        #expect(!FileManager.default.fileExists(atPath: dir.keyFile.path))
        let reopened = try Vault(
            at: dir.vault, key: .askPassphrase(CountingPrompt(answer: "hunter2")), configuration: testConfiguration())
        #expect(text(try reopened.get(service: "s", account: "a")) == "secret")
        guard
            case .keyKindMismatch(_, let needs) = vaultError({
                _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
            })
        else {
            Issue.record("expected keyKindMismatch")
            return
        }
        #expect(needs.contains("STOREFRONT_PASSPHRASE"))
    }

    @Test func environmentChoosesPassphraseElseKeyFile() throws {
        let keyFile = URL(fileURLWithPath: "/tmp/x.key")
        guard case .passphrase(let p) = VaultKey.fromEnvironment(["STOREFRONT_PASSPHRASE": "abc"], keyFile: keyFile)
        else {
            Issue.record("expected passphrase")
            return
        }
        #expect(p.copiedBytes == Array("abc".utf8))
        guard case .keyFile(let url) = VaultKey.fromEnvironment(["STOREFRONT_PASSPHRASE": ""], keyFile: keyFile) else {
            Issue.record("expected key file")
            return
        }
        #expect(url == keyFile)
        #expect(VaultKey.defaultKeyFile(for: URL(fileURLWithPath: "/d/vault.sfv")).path == "/d/vault.key")
    }

    @Test func changingThePassphraseRewritesOnlyTheKeySlot() throws {
        let dir = try TemporaryDirectory()
        let old = SecureBytes(Array("old pass".utf8))
        let new = SecureBytes(Array("new pass".utf8))
        let vault = try Vault(at: dir.vault, key: .passphrase(old), configuration: testConfiguration())
        for i in 0..<5 { try vault.upsert(service: "s", account: "a\(i)", content("v\(i)")) }
        let before = try fileBytes(dir.vault)
        try vault.changeKey(to: .passphrase(new))
        let after = try fileBytes(dir.vault)
        // Records byte for byte identical; header differs only in the key slot (and its checksum).
        #expect(Array(before[VaultFormat.headerLength...]) == Array(after[VaultFormat.headerLength...]))
        #expect(Array(before[..<33]) == Array(after[..<33]))
        #expect(before[33..<144] != after[33..<144])
        // The handle keeps working, new writes land, the new passphrase opens, the old one does not.
        try vault.upsert(service: "s", account: "later", content("ok"))
        let reopened = try Vault(at: dir.vault, key: .passphrase(new), configuration: testConfiguration())
        #expect(try reopened.allItems().count == 6)
        #expect(
            vaultError { _ = try Vault(at: dir.vault, key: .passphrase(old), configuration: testConfiguration()) }
                == .authenticationFailed(path: dir.vault.path))
        // And to a key file.
        try reopened.changeKey(to: .keyFile(dir.keyFile))
        #expect(
            try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration()).allItems().count
                == 6)
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
