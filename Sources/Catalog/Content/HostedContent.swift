import Foundation

/// A product's hosted content from the catalog's content sidecar:
/// `NAME.content/PRODUCT_ID/manifest.json` and the files beside it.
///
/// The manifest (version 1):
/// ```json
/// { "version": 1, "contentVersion": "1.0",
///   "files": [ { "path": "levels/01.json", "size": 18231, "sha256": "9f86d08…" } ] }
/// ```
public struct HostedContent: Sendable, Hashable {
    /// The product the content belongs to.
    public var productID: String
    /// The content version (a single path component, e.g. `1.0`).
    public var version: String
    /// The directory holding the files (`NAME.content/PRODUCT_ID`).
    public var directory: URL
    /// The manifest's path, for messages.
    public var manifestFile: String
    /// The files, in manifest order.
    public var files: [HostedContentFile]

    /// Creates hosted content.
    public init(productID: String, version: String, directory: URL, manifestFile: String, files: [HostedContentFile]) {
        self.productID = productID
        self.version = version
        self.directory = directory
        self.manifestFile = manifestFile
        self.files = files
    }

    /// The sum of the files' sizes.
    public var totalBytes: Int64 { files.reduce(0) { $0 + $1.size } }

    /// The location of `file` on disk.
    public func url(of file: HostedContentFile) -> URL { directory.appendingPathComponent(file.path) }
}
