import Foundation
package import SystemIO

/// How hosted-content downloads behave; immutable once the `Store` is made. Rates are timed
/// by `StoreConfiguration.clock`.
public struct DownloadConfiguration: Sendable {
    /// The data directory: partial downloads go to `Downloads/`, installed content to
    /// `Content/PRODUCT_ID/VERSION/`.
    public var dataDirectory: URL
    /// Bytes between durable checkpoints (fsync of the partial file, then of the offset
    /// record). A restart resumes from the last checkpoint.
    public var checkpointBytes: Int64
    /// Whether downloads start by themselves (the default, as in RMStore). When false they are
    /// recorded as waiting and start on `DownloadManager.resume` (a short-lived CLI command that
    /// should not begin downloads it will not wait for).
    public var startsAutomatically: Bool
    /// How many downloads run at once; the rest wait.
    public var maxConcurrentDownloads: Int
    /// Self-hosted content (RMStore's `contentDownloader`): asked for products the store
    /// hosts no content for.
    public var contentDownloader: (any ContentDownloader)?
    /// The file system partial and installed content are written through (tests wrap it).
    package var fileSystem: any FileSystem = POSIXFileSystem()

    /// Creates a configuration.
    /// - Parameters:
    ///   - dataDirectory: the data directory (see `dataDirectory`).
    ///   - checkpointBytes: bytes between durable checkpoints, 1 MiB by default.
    ///   - maxConcurrentDownloads: downloads at once, 2 by default.
    ///   - contentDownloader: the app's self-hosted content source, if any.
    ///   - startsAutomatically: whether downloads start by themselves.
    public init(
        dataDirectory: URL, checkpointBytes: Int64 = 1 << 20, maxConcurrentDownloads: Int = 2,
        contentDownloader: (any ContentDownloader)? = nil, startsAutomatically: Bool = true
    ) {
        self.dataDirectory = dataDirectory
        self.checkpointBytes = max(1, checkpointBytes)
        self.maxConcurrentDownloads = max(1, maxConcurrentDownloads)
        self.contentDownloader = contentDownloader
        self.startsAutomatically = startsAutomatically
    }

    /// Creates a configuration whose files go through `fileSystem` (tests fill the disk).
    package init(
        dataDirectory: URL, checkpointBytes: Int64 = 1 << 20, maxConcurrentDownloads: Int = 2,
        contentDownloader: (any ContentDownloader)? = nil, startsAutomatically: Bool = true,
        fileSystem: any FileSystem
    ) {
        self.init(
            dataDirectory: dataDirectory, checkpointBytes: checkpointBytes,
            maxConcurrentDownloads: maxConcurrentDownloads, contentDownloader: contentDownloader,
            startsAutomatically: startsAutomatically)
        self.fileSystem = fileSystem
    }
}
