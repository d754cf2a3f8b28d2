import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import Vault

#if canImport(Glibc)
    import Glibc  // chown, to give a file away (as root)
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite(.waitsOnProcesses) struct PermissionTests {
    @Test func refusesToOpenThroughASymlink() throws {
        let dir = try TemporaryDirectory()
        _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        let link = dir.vault.deletingLastPathComponent().appendingPathComponent("link.sfv")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: dir.vault)
        #expect(
            vaultError { _ = try Vault(at: link, key: .keyFile(dir.keyFile), configuration: testConfiguration()) }
                == .symbolicLink(path: link.path))
        let keyLink = dir.url.appendingPathComponent("link.key")
        try FileManager.default.createSymbolicLink(at: keyLink, withDestinationURL: dir.keyFile)
        #expect(
            vaultError { _ = try Vault(at: dir.vault, key: .keyFile(keyLink), configuration: testConfiguration()) }
                == .symbolicLink(path: keyLink.path))
    }

    @Test func refusesFilesOthersMayReadNamingTheFix() throws {
        let dir = try TemporaryDirectory()
        _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        for file in [dir.vault, dir.keyFile] {
            try setMode(file, 0o644)
            let error = vaultError {
                _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
            }
            #expect(error == .insecurePermissions(path: file.path, mode: 0o100644, fix: "chmod 600 \(file.path)"))
            #expect(error?.description.contains("chmod 600 \(file.path)") == true)
            try setMode(file, 0o600)
        }
        let directory = dir.vault.deletingLastPathComponent()
        try setMode(directory, 0o777)
        #expect(
            vaultError { _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration()) }?
                .description.contains("chmod 700 \(directory.path)") == true)
        try setMode(directory, 0o700)
        #expect(throws: Never.self) {
            _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        }
    }

    @Test func refusesAFileOwnedByAnotherUser() throws {
        let dir = try TemporaryDirectory()
        _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        if CurrentProcess.effectiveUserID == 0 {
            // Root can give the file away for real.
            #expect(chown(dir.vault.path, 4242, 4242) == 0)
            #expect(
                vaultError {
                    _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
                }
                    == .wrongOwner(path: dir.vault.path, owner: 4242))
        } else {
            // Otherwise the vault is told it runs as someone else.
            let otherUser = FaultInjectingFileSystem()
            otherUser.reportedUser = CurrentProcess.effectiveUserID + 1
            #expect(
                vaultError {
                    _ = try Vault(
                        at: dir.vault, key: .keyFile(dir.keyFile),
                        configuration: testConfiguration(fileSystem: otherUser))
                } != nil)
        }
    }

    @Test func filesAre0600AndTheDirectory0700EvenUnderUmask000() throws {
        // umask is process-wide, so the vault is created by a child process that sets it to 0.
        let dir = try TemporaryDirectory()
        let vault = dir.url.appendingPathComponent("fresh/nested/vault.sfv")
        let result = try TortureProcess.run(["create", vault.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(mode(vault) == 0o600)
        #expect(mode(VaultKey.defaultKeyFile(for: vault)) == 0o600)
        #expect(mode(URL(fileURLWithPath: vault.path + ".lock")) == 0o600)
        #expect(mode(vault.deletingLastPathComponent()) == 0o700)
        #expect(mode(vault.deletingLastPathComponent().deletingLastPathComponent()) == 0o700)
        let opened = try Vault(
            at: vault, key: .keyFile(VaultKey.defaultKeyFile(for: vault)), configuration: testConfiguration())
        #expect(text(try opened.get(service: "umask", account: "zero")) == "x")
    }
}

/// Changes a file's permission bits (to make them wrong on purpose).
private func setMode(_ url: URL, _ mode: UInt32) throws {
    try POSIXFileSystem().setPermissions(atPath: url.path, to: mode)
}
