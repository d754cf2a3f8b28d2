import Foundation
import Glibc
import TestSupport
import Testing
@testable import Vault

@Suite struct PermissionTests {
    @Test func refusesToOpenThroughASymlink() throws {
        let dir = try TemporaryDirectory()
        _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        let link = dir.vault.deletingLastPathComponent().appendingPathComponent("link.sfv")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: dir.vault)
        #expect(vaultError { _ = try Vault(at: link, key: .keyFile(dir.keyFile), configuration: testConfiguration()) }
            == .symbolicLink(path: link.path))
        let keyLink = dir.url.appendingPathComponent("link.key")
        try FileManager.default.createSymbolicLink(at: keyLink, withDestinationURL: dir.keyFile)
        #expect(vaultError { _ = try Vault(at: dir.vault, key: .keyFile(keyLink), configuration: testConfiguration()) }
            == .symbolicLink(path: keyLink.path))
    }

    @Test func refusesFilesOthersMayReadNamingTheFix() throws {
        let dir = try TemporaryDirectory()
        _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        for file in [dir.vault, dir.keyFile] {
            chmod(file.path, 0o644)
            let error = vaultError { _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration()) }
            #expect(error == .insecurePermissions(path: file.path, mode: 0o100644, fix: "chmod 600 \(file.path)"))
            #expect(error?.description.contains("chmod 600 \(file.path)") == true)
            chmod(file.path, 0o600)
        }
        let directory = dir.vault.deletingLastPathComponent()
        chmod(directory.path, 0o777)
        #expect(vaultError { _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration()) }?
            .description.contains("chmod 700 \(directory.path)") == true)
        chmod(directory.path, 0o700)
        #expect(throws: Never.self) { _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration()) }
    }

    @Test func refusesAFileOwnedByAnotherUser() throws {
        let dir = try TemporaryDirectory()
        _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        if geteuid() == 0 {
            // Root can give the file away for real.
            #expect(chown(dir.vault.path, 4242, 4242) == 0)
            #expect(vaultError { _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration()) }
                == .wrongOwner(path: dir.vault.path, owner: 4242))
        } else {
            // Otherwise the vault is told it runs as someone else.
            struct OtherUser: VaultFileSystem {
                let real = PosixFileSystem()
                func open(_ p: String, flags: Int32, mode: UInt32) throws(SystemCallError) -> Int32 { try real.open(p, flags: flags, mode: mode) }
                func close(_ fd: Int32) { real.close(fd) }
                func status(_ fd: Int32) throws(SystemCallError) -> FileStatus { try real.status(fd) }
                func linkStatus(_ p: String) throws(SystemCallError) -> FileStatus? { try real.linkStatus(p) }
                func read(_ fd: Int32, count: Int, at o: UInt64) throws(SystemCallError) -> [UInt8] { try real.read(fd, count: count, at: o) }
                func write(_ fd: Int32, _ b: ArraySlice<UInt8>, at o: UInt64) throws(SystemCallError) { try real.write(fd, b, at: o) }
                func sync(_ fd: Int32) throws(SystemCallError) { try real.sync(fd) }
                func syncDirectory(_ p: String) throws(SystemCallError) { try real.syncDirectory(p) }
                func truncate(_ fd: Int32, to l: UInt64) throws(SystemCallError) { try real.truncate(fd, to: l) }
                func setMode(_ fd: Int32, _ m: UInt32) throws(SystemCallError) { try real.setMode(fd, m) }
                func rename(_ a: String, to b: String) throws(SystemCallError) { try real.rename(a, to: b) }
                func remove(_ p: String) throws(SystemCallError) { try real.remove(p) }
                func makeDirectory(_ p: String, mode: UInt32) throws(SystemCallError) { try real.makeDirectory(p, mode: mode) }
                func lockExclusive(_ fd: Int32) throws(SystemCallError) { try real.lockExclusive(fd) }
                func unlock(_ fd: Int32) { real.unlock(fd) }
                func currentUser() -> UInt32 { real.currentUser() + 1 }
            }
            #expect(vaultError { _ = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration(fileSystem: OtherUser())) } != nil)
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
        let opened = try Vault(at: vault, key: .keyFile(VaultKey.defaultKeyFile(for: vault)), configuration: testConfiguration())
        #expect(text(try opened.get(service: "umask", account: "zero")) == "x")
    }
}
