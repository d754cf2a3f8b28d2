internal import SystemIO

/// The store's directories (the state directory, its `owners`): made 0700 when missing, and
/// refused with a clear error when this process may not write in them. A directory that exists
/// keeps the permissions its owner gave it; the store never `chmod`s one to make it usable.
enum StoreDirectory {
    /// Creates `path` (and its parents) when missing and checks this process may write in it.
    /// - Throws: `LocalAppStoreError.io` naming the directory that cannot be made or written.
    static func prepare(_ path: String, fileSystem: any FileSystem) throws(LocalAppStoreError) {
        do {
            try fileSystem.createDirectories(path, mode: 0o700, enforcingMode: true)
        } catch {
            throw .io(path: error.path, reason: "\(error.operation) failed: \(error.errno)")
        }
        do {
            try fileSystem.checkWritable(path)
        } catch {
            throw notWritable(path, error)
        }
    }

    /// The error for a directory the store may not write in.
    static func notWritable(_ path: String, _ error: SystemCallError) -> LocalAppStoreError {
        .io(
            path: path,
            reason: "the directory is not writable (\(error.errno)); storefront never changes its permissions: "
                + "make it writable (chmod u+w \(path)) or use another data directory")
    }
}
