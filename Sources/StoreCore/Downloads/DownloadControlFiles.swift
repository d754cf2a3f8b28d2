internal import SystemIO

/// Requests from other processes to pause or cancel a download this process runs: a file
/// `Downloads/control/ID` holding the state asked for, read before each chunk.
struct DownloadControlFiles {
    let fs: any FileSystem
    let paths: DownloadPaths

    /// Asks the process running download `id` to stop as `state` at its next chunk.
    func request(_ state: DownloadState, for id: String) throws(DownloadError) {
        try DownloadError.translating { () throws(SystemCallError) in
            try fs.createDirectories(paths.controlDirectory)
            try fs.replaceAtomically(
                paths.control(id), with: Array(state.rawValue.utf8), fileSync: .all, syncsDirectory: false)
        }
    }

    /// The stop another process asked for, if any.
    func pending(for id: String) -> DownloadState? {
        guard let bytes = try? fs.readFile(paths.control(id)) else { return nil }
        let state = DownloadState(rawValue: String(decoding: bytes, as: UTF8.self))
        return state == .paused || state == .cancelled ? state : nil
    }

    /// Forgets any request for download `id`.
    func clear(_ id: String) {
        try? fs.removeTree(paths.control(id))
    }
}
