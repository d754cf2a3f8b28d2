/// `flock` leases on paths, made of `FileSystem` requirements only. The kernel drops a lease
/// when its process dies, however it dies.
extension FileSystem {
    /// Takes an exclusive lock on `path` (created 0600 when missing) without waiting.
    /// - Returns: the locked file, released with `release`; `nil` when another holder has it.
    public func tryLease(_ path: String) throws(SystemCallError) -> OpenFile? {
        let file = try open(path, [.readWrite, .create])
        do {
            if try lock(file, waiting: false) { return file }
        } catch {
            close(file)
            throw error
        }
        close(file)
        return nil
    }

    /// Releases a lease taken with `tryLease` and closes its file.
    public func release(_ lease: OpenFile) {
        unlock(lease)
        close(lease)
    }
}
