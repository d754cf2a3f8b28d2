/// A source of hosted content: the store itself (`StoreBackend`), or the app's own server
/// (self-hosted content, RMStore's `contentDownloader`). Implement it to download content
/// from anywhere; `HTTPContentDownloader` is the shipped implementation for web servers.
public protocol ContentDownloader: Sendable {
    /// The manifest of `productID`'s content, or `nil` when this source has none for it.
    /// - Throws: `DownloadError.transferFailed` when the source cannot be asked.
    func manifest(forProductID productID: String) async throws(DownloadError) -> ContentManifest?

    /// The bytes of `file` of `manifest`'s content from byte `offset` on, in chunks, pulled
    /// one at a time (so nothing is read ahead of the writer). The stream throws a
    /// `DownloadError` when the transfer fails.
    func bytes(
        of file: ContentFile, in manifest: ContentManifest, from offset: Int64
    ) -> AsyncThrowingStream<[UInt8], any Error>
}

/// Content hosted by the store, fetched through the `StoreBackend` (Apple-hosted content).
struct HostedContentDownloader: ContentDownloader {
    let backend: any StoreBackend

    func manifest(forProductID productID: String) async throws(DownloadError) -> ContentManifest? {
        do {
            return try await backend.contentManifest(productID: productID)
        } catch {
            throw .transferFailed(error.description)
        }
    }

    func bytes(
        of file: ContentFile, in manifest: ContentManifest, from offset: Int64
    ) -> AsyncThrowingStream<[UInt8], any Error> {
        backend.contentBytes(productID: manifest.productID, version: manifest.version, path: file.path, offset: offset)
    }
}

extension StoreBackend {
    /// No hosted content, for backends without any.
    public func contentManifest(productID: String) async throws(StoreError) -> ContentManifest? { nil }

    /// A stream that fails at once, for backends without hosted content.
    public func contentBytes(
        productID: String, version: String, path: String, offset: Int64
    ) -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream { $0.finish(throwing: DownloadError.noContent(productID: productID)) }
    }
}
