internal import SystemIO

/// Installs verified content with one rename: `Downloads/partial/ID/` becomes
/// `Content/PRODUCT_ID/VERSION/` (same file system) and the parent is synced, so a
/// half-written download is never visible as installed.
struct ContentInstaller {
    let fs: any FileSystem
    let paths: DownloadPaths

    /// What the partial directory of a download whose files are all verified holds.
    enum Staged: Equatable {
        /// Every file, with its size: ready to install.
        case complete
        /// Nothing to install, and the content is in place: the rename happened before a crash
        /// that the record did not survive (the record still says downloading).
        case alreadyInstalled
        /// Files are missing or short (a power loss took what was never made durable): the
        /// download must start again.
        case incomplete
    }

    /// Whether `manifest`'s content is installed already, every file with its size.
    func isInstalled(_ manifest: ContentManifest) -> Bool {
        holdsEveryFile(paths.installedDirectory(manifest), manifest)
    }

    /// Where `manifest`'s content is installed, when it is.
    func installedDirectory(ifPresent manifest: ContentManifest) -> String? {
        let directory = paths.installedDirectory(manifest)
        return fs.exists(directory) ? directory : nil
    }

    /// What `record`'s partial directory holds, once every file is downloaded and verified.
    func staged(_ record: DownloadRecord) -> Staged {
        if holdsEveryFile(paths.partialDirectory(record.download.id), record.manifest) { return .complete }
        return isInstalled(record.manifest) ? .alreadyInstalled : .incomplete
    }

    private func holdsEveryFile(_ root: String, _ manifest: ContentManifest) -> Bool {
        fs.exists(root)
            && manifest.files.allSatisfy {
                fs.regularFileSize(atPath: root + "/" + $0.path).flatMap { Int64(exactly: $0) } == $0.size
            }
    }

    /// Moves the verified partial directory of `record` into place and marks it finished
    /// (the caller commits the record). Call only when `staged(record)` is `.complete`, or
    /// `.alreadyInstalled` (then only the rename's durability is made sure of).
    func install(_ record: inout DownloadRecord) throws(DownloadError) {
        let target = paths.installedDirectory(record.manifest)
        let productDirectory = FilePaths.parent(of: target)
        let staged = paths.partialDirectory(record.download.id)
        try DownloadError.translating { () throws(SystemCallError) in
            try createDurably(productDirectory)
            if fs.exists(staged), !holdsEveryFile(staged, record.manifest) {
                // A partial directory that is not whole beside the installed copy: a crash after
                // the rename lost the checkpoints that said so, and the files downloaded again
                // since are a part of what is installed. The installed copy stays.
                guard isInstalled(record.manifest) else {
                    throw SystemCallError("install", path: staged, errno: .noSuchFile)
                }
                try fs.removeTree(staged)
            } else if fs.exists(staged) {
                // Every directory of the content holds its names durably before the one
                // rename makes it visible, so nothing installed can lose a file to a power cut.
                try fs.createDirectories(staged)
                let directories = Set(
                    record.manifest.files.map { FilePaths.parent(of: staged + "/" + $0.path) } + [staged])
                for directory in directories.sorted() { try fs.synchronizeDirectory(directory) }
                if fs.exists(target) {
                    // Same version installed by another download: swap it for this verified copy.
                    let old = productDirectory + "/.replaced-" + record.download.id
                    try fs.removeTree(old)
                    try fs.rename(target, to: old)
                    try fs.rename(staged, to: target)
                    try fs.synchronizeDirectory(productDirectory)
                    try? fs.removeTree(old)
                } else {
                    try fs.rename(staged, to: target)
                }
            }
            try fs.synchronizeDirectory(productDirectory)
        }
        record.download.state = .finished
        record.download.bytesWritten = record.download.totalBytes
        record.download.bytesPerSecond = 0
        record.download.contentPath = target
    }

    /// Creates `directory` (parents too) so that every level created survives a power cut: each
    /// new directory's parent is synced.
    private func createDurably(_ directory: String) throws(SystemCallError) {
        var missing: [String] = []
        var path = directory
        while !fs.exists(path), path != "/", path != "." {
            missing.append(path)
            path = FilePaths.parent(of: path)
        }
        try fs.createDirectories(directory)
        for created in missing.reversed() { try fs.synchronizeDirectory(FilePaths.parent(of: created)) }
        if missing.isEmpty { try fs.synchronizeDirectory(FilePaths.parent(of: directory)) }
    }
}
