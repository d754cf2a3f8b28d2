import Foundation
import StoreKitValues

/// A product's hosted content from the catalog's content sidecar:
/// `NAME.content/PRODUCT_ID/manifest.json` and the files beside it.
///
/// The manifest (version 1):
/// ```json
/// { "version": 1, "contentVersion": "1.0",
///   "files": [ { "path": "levels/01.json", "size": 18231, "sha256": "9f86d08…" } ] }
/// ```
public struct HostedContent: Sendable, Hashable {
    /// What the content is made of: the product, the content version and the files, in
    /// manifest order (the manifest the engine downloads and checks against).
    public var manifest: ContentManifest
    /// The directory holding the files (`NAME.content/PRODUCT_ID`).
    public var directory: URL
    /// The manifest's path, for messages.
    public var manifestFile: String

    /// The content version (a single path component, e.g. `1.0`).
    public var version: String { manifest.version }
    /// The files, in manifest order.
    public var files: [ContentFile] { manifest.files }

    /// The location of `file` on disk.
    public func url(of file: ContentFile) -> URL { directory.appendingPathComponent(file.path) }
}
