/// A file made once and never replaced, by whichever process comes first (a device's
/// identifier, an account's app download, a key): made of `FileSystem` requirements only.
extension FileSystem {
    /// Creates `path` holding `bytes` unless something is there already. The bytes go to a
    /// private temporary beside it, which is synced and hard-linked to `path` (a link never
    /// replaces a file: of several processes the first wins and all read its file), then
    /// removed; the directory is synced, so after a power loss the file is there whole or not
    /// at all, never empty.
    /// - Returns: whether this call made the file (false: one was there).
    @discardableResult
    public func createOnce(
        _ path: String, with bytes: [UInt8], temporaryPath: String, mode: UInt32 = 0o600
    ) throws(SystemCallError) -> Bool {
        if exists(path) { return false }
        let temporary = try openReplacement(temporaryPath, mode: mode)
        defer { close(temporary) }
        var made = true
        do throws(SystemCallError) {
            try write(temporary, bytes[...], at: 0)
            try synchronize(temporary, .all)
            do throws(SystemCallError) {
                try link(temporaryPath, to: path)
            } catch {
                guard error.errno == .fileExists else { throw error }
                made = false
            }
        } catch {
            try? removeFile(temporaryPath)
            throw error
        }
        try removeFile(temporaryPath)
        try synchronizeDirectory(FilePaths.parent(of: path))
        return made
    }
}
