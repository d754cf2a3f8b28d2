import Foundation
internal import SystemIO

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
    private let fs: any FileSystem
    private let file: OpenFile

    /// Creates and locks this instance's lease file in `directory/owners`, and removes the
    /// lease files of instances that are gone (drafts a crash left under their draft name too).
    init(directory: String, fileSystem: any FileSystem = POSIXFileSystem()) throws(LocalAppStoreError) {
        let owners = directory + "/owners"
        fs = fileSystem
        try StoreDirectory.prepare(owners, fileSystem: fileSystem)
        // A sweeper may take a draft in the instant between its creation and its lock (it looks
        // abandoned then) and remove it: the rename then finds nothing, and a new token is tried.
        var attempt = 0
        while true {
            attempt += 1
            let token = UUID().uuidString
            let path = owners + "/" + token + ".lock"
            let draft = owners + "/" + token + ".tmp"
            let locked: OpenFile?
            do {
                // Locked under a draft name, then renamed: a `.lock` file is never seen unlocked
                // while its owner lives, so a sweeper cannot take a newborn lease for a dead one.
                locked = try fileSystem.tryLease(draft)
            } catch {
                throw Self.io(error)
            }
            guard let locked else {
                if attempt < 5 { continue }
                throw .io(path: draft, reason: "a fresh lease file is already locked")
            }
            do {
                try fileSystem.rename(draft, to: path)
            } catch {
                fileSystem.release(locked)
                if error.errno == .noSuchFile, attempt < 5 { continue }
                throw Self.io(error)
            }
            self.token = token
            self.path = path
            file = locked
            break
        }
        Self.sweep(directory: directory, keeping: token, fileSystem: fileSystem)
    }

    private static func io(_ error: SystemCallError) -> LocalAppStoreError {
        .io(path: error.path, reason: "\(error.operation) failed: \(error.errno)")
    }

    deinit {
        try? fs.removeFile(path)
        fs.close(file)
    }

    /// Removes the `.lock` files of instances that died without an unfinished purchase to
    /// adopt (a killed process leaves its file behind; the kernel only drops the lock), and the
    /// unlocked `.tmp` drafts of instances that died (or lost power) before renaming theirs.
    private static func sweep(directory: String, keeping token: String, fileSystem: any FileSystem) {
        guard let names = try? fileSystem.contentsOfDirectory(directory + "/owners") else { return }
        for name in names where name != token + ".lock" {
            if name.hasSuffix(".lock") {
                _ = isAbandoned(token: String(name.dropLast(5)), directory: directory, fileSystem: fileSystem)
            } else if name.hasSuffix(".tmp") {
                _ = removeIfUnlocked(directory + "/owners/" + name, fileSystem: fileSystem)
            }
        }
    }

    /// Whether the instance holding `token` is gone: its lease file is missing or unlocked.
    static func isAbandoned(token: String, directory: String, fileSystem fs: any FileSystem = POSIXFileSystem()) -> Bool
    {
        removeIfUnlocked(directory + "/owners/" + token + ".lock", fileSystem: fs)
    }

    /// Removes the lease file at `path` if nobody holds its lock.
    /// - Returns: whether nobody holds it (it is gone or was removed).
    private static func removeIfUnlocked(_ path: String, fileSystem fs: any FileSystem) -> Bool {
        guard let file = try? fs.open(path, .read) else { return true }
        defer { fs.close(file) }
        let free = (try? fs.lock(file, waiting: false)) ?? false
        if free { try? fs.removeFile(path) }
        return free
    }
}
