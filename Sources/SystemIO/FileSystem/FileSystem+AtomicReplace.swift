/// Atomic replacement of a file (write a temporary, sync it, rename it over the file, sync
/// the directory), made of `FileSystem` requirements only: readers see the old file or the
/// new one, never a mix, and after the directory sync the new one survives a power loss.
extension FileSystem {
    /// Creates (or empties) the private temporary file of a replacement: never through a
    /// symbolic link, and with exactly `mode` whatever the umask.
    /// - Returns: the temporary, open for reading and writing.
    public func openReplacement(_ temporaryPath: String, mode: UInt32 = 0o600) throws(SystemCallError) -> OpenFile {
        let file = try open(temporaryPath, [.readWrite, .create, .truncate, .noFollow], mode: mode)
        do {
            try setPermissions(of: file, to: mode)
        } catch {
            close(file)
            throw error
        }
        return file
    }

    /// Makes the written temporary durable and renames it over `path`, then makes the rename
    /// durable. If a step before the rename fails, the temporary is removed; the caller closes
    /// `temporary` either way (after success it is the file at `path`).
    /// - Parameters:
    ///   - temporary: the file from `openReplacement`, holding the new content.
    ///   - path: the file to replace.
    ///   - fileSync: how the temporary is synced before the rename; `nil` skips it (only for
    ///     data a crash may lose, such as a benchmark's seeding).
    ///   - syncsDirectory: whether the directory is synced after the rename; without it a
    ///     crash may undo the rename (the old file comes back, whole).
    ///   - beforeRename: runs between the sync and the rename (a fault point).
    public func commitReplacement(
        _ temporary: OpenFile, over path: String, fileSync: SyncScope? = .all, syncsDirectory: Bool = true,
        beforeRename: () -> Void = {}
    ) throws(SystemCallError) {
        do {
            if let fileSync { try synchronize(temporary, fileSync) }
            beforeRename()
            try rename(temporary.path, to: path)
        } catch {
            try? removeFile(temporary.path)
            throw error
        }
        if syncsDirectory { try synchronizeDirectory(FilePaths.parent(of: path)) }
    }

    /// Replaces the file at `path` with `bytes` atomically (see `commitReplacement`).
    /// - Parameters:
    ///   - temporaryPath: the temporary beside it; `PATH.tmp` by default.
    ///   - mode: the new file's permission bits.
    public func replaceAtomically(
        _ path: String, with bytes: ArraySlice<UInt8>, temporaryPath: String? = nil, mode: UInt32 = 0o600,
        fileSync: SyncScope? = .all, syncsDirectory: Bool = true
    ) throws(SystemCallError) {
        let temporary = try openReplacement(temporaryPath ?? path + ".tmp", mode: mode)
        defer { close(temporary) }
        do {
            try write(temporary, bytes, at: 0)
        } catch {
            try? removeFile(temporary.path)
            throw error
        }
        try commitReplacement(temporary, over: path, fileSync: fileSync, syncsDirectory: syncsDirectory)
    }

    /// Replaces the file at `path` with `bytes` atomically.
    public func replaceAtomically(
        _ path: String, with bytes: [UInt8], temporaryPath: String? = nil, mode: UInt32 = 0o600,
        fileSync: SyncScope? = .all, syncsDirectory: Bool = true
    ) throws(SystemCallError) {
        try replaceAtomically(
            path, with: bytes[...], temporaryPath: temporaryPath, mode: mode, fileSync: fileSync,
            syncsDirectory: syncsDirectory)
    }
}
