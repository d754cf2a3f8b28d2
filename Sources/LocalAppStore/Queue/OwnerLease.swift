import Foundation

/// Proof that a store instance is alive, for the transactions it is processing.
///
/// Each instance holds an exclusive `flock` on `owners/TOKEN.lock` for as long as it lives.
/// The kernel drops the lock when the process dies (even by SIGKILL) or the instance is
/// released, so another instance that can take the lock knows the owner is gone and adopts
/// its `.purchasing` transactions. `flock` locks belong to open file descriptions, so this
/// also tells apart two instances inside one process.
final class OwnerLease: Sendable {
    /// The token written into the entries this instance owns.
    let token: String
    private let path: String
    private let fd: Int32

    /// Creates and locks this instance's lease file in `directory/owners`, and removes the
    /// lease files of instances that are gone.
    init(directory: String) throws(LocalAppStoreError) {
        let owners = directory + "/owners"
        token = UUID().uuidString
        path = owners + "/" + token + ".lock"
        let draft = owners + "/" + token + ".tmp"
        do {
            try Platform.makeDirectory(owners, mode: 0o700)
            // Locked under a draft name, then renamed: a `.lock` file is never seen unlocked
            // while its owner lives, so a sweeper cannot take a newborn lease for a dead one.
            fd = try Platform.openReadWrite(draft)
            guard try Platform.tryLockExclusive(fd, path: draft) else {
                Platform.closeDescriptor(fd)
                throw LocalAppStoreError.io(path: draft, reason: "a fresh lease file is already locked")
            }
            try Platform.renameItem(draft, path)
        } catch let error as Platform.PlatformError {
            throw .io(path: error.path, reason: "\(error.call) failed: \(error.reason)")
        } catch let error as LocalAppStoreError {
            throw error
        } catch {
            throw .io(path: path, reason: "\(error)")
        }
        Self.sweep(directory: directory, keeping: token)
    }

    deinit {
        Platform.removeFile(path)
        Platform.closeDescriptor(fd)
    }

    /// Removes the `.lock` files of instances that died without an unfinished purchase to
    /// adopt (a killed process leaves its file behind; the kernel only drops the lock).
    private static func sweep(directory: String, keeping token: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory + "/owners") else { return }
        for name in names where name.hasSuffix(".lock") && name != token + ".lock" {
            _ = isAbandoned(token: String(name.dropLast(5)), directory: directory)
        }
    }

    /// Whether the instance holding `token` is gone: its lease file is missing or unlocked.
    static func isAbandoned(token: String, directory: String) -> Bool {
        let path = directory + "/owners/" + token + ".lock"
        guard let fd = try? Platform.openReadOnly(path) else { return true }
        defer { Platform.closeDescriptor(fd) }
        let free = (try? Platform.tryLockExclusive(fd, path: path)) ?? false
        if free { Platform.removeFile(path) }
        return free
    }
}
