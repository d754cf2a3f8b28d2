internal import SystemIO

extension DownloadError {
    /// The download error for a failed file-system call, naming its file: a full disk or
    /// quota, a path that cannot be written, or another failure.
    init(_ error: SystemCallError) {
        if error.errno.isDiskFull {
            self = .diskFull(path: error.path)
        } else if error.errno.isPermissionProblem || error.errno == .notADirectory {
            self = .notWritable(path: error.path, reason: error.errno.description)
        } else {
            self = .fileSystem(path: error.path, reason: error.errno.description)
        }
    }

    /// Runs a file-system call, turning its failure into a `DownloadError`.
    static func translating<T>(_ body: () throws(SystemCallError) -> T) throws(DownloadError) -> T {
        do {
            return try body()
        } catch {
            throw DownloadError(error)
        }
    }
}
