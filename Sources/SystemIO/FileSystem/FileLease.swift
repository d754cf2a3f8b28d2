import Synchronization

/// A lease taken with `tryLease`, held by one owner for its life: released once, by `release`
/// or when the owner lets it go, whichever comes first.
public final class FileLease: Sendable {
    private let file: OpenFile
    private let fileSystem: any FileSystem
    private let released = Mutex(false)

    /// Takes the lease on `path` without waiting.
    /// - Returns: nil while another holder has it.
    /// - Throws: `SystemCallError` when the lock file cannot be opened or locked.
    public static func take(_ path: String, fileSystem: any FileSystem) throws(SystemCallError) -> FileLease? {
        try fileSystem.tryLease(path).map { FileLease(file: $0, fileSystem: fileSystem) }
    }

    private init(file: OpenFile, fileSystem: any FileSystem) {
        self.file = file
        self.fileSystem = fileSystem
    }

    deinit { release() }

    /// Gives the lease up, the first time only; `last` runs just before, while it is held.
    public func release(_ last: () -> Void = {}) {
        guard
            !released.withLock({ done in
                defer { done = true }
                return done
            })
        else { return }
        last()
        fileSystem.release(file)
    }
}
