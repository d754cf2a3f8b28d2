import SystemIO

/// Installs verified content with one rename: `Downloads/partial/ID/` becomes
/// `Content/PRODUCT_ID/VERSION/` (same file system) and the parent is synced, so a
/// half-written download is never visible as installed.
struct ContentInstaller {
    let fs: any FileSystem
    let paths: DownloadPaths

    /// Whether `manifest`'s content is installed already, every file with its size.
    func isInstalled(_ manifest: ContentManifest) -> Bool {
        let root = paths.installedDirectory(manifest)
        return fs.exists(root) && manifest.files.allSatisfy {
            fs.regularFileSize(atPath: root + "/" + $0.path).flatMap { Int64(exactly: $0) } == $0.size
        }
    }

    /// Where `manifest`'s content is installed, when it is.
    func installedDirectory(ifPresent manifest: ContentManifest) -> String? {
        let directory = paths.installedDirectory(manifest)
        return fs.exists(directory) ? directory : nil
    }

    /// Moves the verified partial directory of `record` into place and marks it finished
    /// (the caller commits the record).
    func install(_ record: inout DownloadRecord) throws(DownloadError) {
        let target = paths.installedDirectory(record.manifest)
        let productDirectory = FilePaths.parent(of: target)
        let staged = paths.partialDirectory(record.download.id)
        try DownloadError.translating { () throws(SystemCallError) in
            try fs.createDirectories(staged)
            try fs.synchronizeDirectory(staged)
            try fs.createDirectories(productDirectory)
            try fs.synchronizeDirectory(FilePaths.parent(of: productDirectory))
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
                try fs.synchronizeDirectory(productDirectory)
            }
        }
        record.download.state = .finished
        record.download.bytesWritten = record.download.totalBytes
        record.download.bytesPerSecond = 0
        record.download.contentPath = target
    }
}
