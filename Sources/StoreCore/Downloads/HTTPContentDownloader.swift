import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Self-hosted content over HTTP(S): for each product a base URL under which the server holds
/// `manifest.json` (the content sidecar's format: `version` 1, `contentVersion`, `files` with
/// `path`, `size`, `sha256`) and the files at their paths.
///
/// Bytes are fetched with `Range` requests of `chunkBytes` each, one request per pull: a
/// download resumes from any offset, nothing is read ahead of the writer, and memory stays
/// flat. Every request times out after `timeout` seconds, so a dead server fails the download
/// instead of hanging it.
public struct HTTPContentDownloader: ContentDownloader {
    /// The base URL of each product's content, e.g. `https://cdn.example.com/content/PRODUCT_ID/`.
    public let baseURLs: [String: URL]
    /// Seconds before a request is given up.
    public let timeout: TimeInterval
    /// Bytes asked for per request.
    public let chunkBytes: Int
    /// Made on the first request (a storefront that downloads nothing never sets one up).
    private let lazySession: LazyURLSession

    /// Creates a downloader.
    /// - Parameters:
    ///   - baseURLs: the base URL of each self-hosted product (from the catalog's `hosting.json`).
    ///   - timeout: seconds before a request fails (30 by default).
    ///   - chunkBytes: bytes per `Range` request (1 MiB by default).
    public init(baseURLs: [String: URL], timeout: TimeInterval = 30, chunkBytes: Int = 1 << 20) {
        self.baseURLs = baseURLs
        self.timeout = timeout
        self.chunkBytes = max(1, chunkBytes)
        lazySession = LazyURLSession(timeout: timeout, cachePolicy: .reloadIgnoringLocalCacheData)
    }

    private struct RemoteManifest: Decodable {
        let version: Int
        let contentVersion: String
        let files: [ContentFile]
    }

    public func manifest(forProductID productID: String) async throws(DownloadError) -> ContentManifest? {
        guard let base = baseURLs[productID] else { return nil }
        let url = base.appendingPathComponent("manifest.json")
        let (status, data, _) = try await get(url, range: nil)
        guard status == 200 else { throw .transferFailed("GET \(url.absoluteString) answered HTTP \(status)") }
        let remote: RemoteManifest
        do {
            remote = try JSONDecoder().decode(RemoteManifest.self, from: data)
        } catch {
            throw .invalidManifest("\(url.absoluteString) is not a content manifest: \(error)")
        }
        guard remote.version == 1 else {
            throw .invalidManifest(
                "\(url.absoluteString): unsupported manifest version \(remote.version); this build reads version 1")
        }
        return ContentManifest(productID: productID, version: remote.contentVersion, files: remote.files)
    }

    public func bytes(
        of file: ContentFile, in manifest: ContentManifest, from offset: Int64
    ) -> AsyncThrowingStream<[UInt8], any Error> {
        guard let base = baseURLs[manifest.productID] else {
            return AsyncThrowingStream { $0.finish(throwing: DownloadError.noContent(productID: manifest.productID)) }
        }
        let url = file.path.split(separator: "/").reduce(base) { $0.appendingPathComponent(String($1)) }
        let position = HTTPPosition(offset)
        let chunk = Int64(chunkBytes)
        return AsyncThrowingStream(unfolding: {
            let start = position.value
            guard start < file.size else { return nil }
            let end = min(file.size, start + chunk) - 1
            let (status, data, contentRange) = try await get(url, range: (start, end))
            guard status == 206 else {
                if status == 200 {
                    throw DownloadError.transferFailed(
                        "\(url.absoluteString) ignored the Range request (HTTP 200); resuming needs a server with byte ranges"
                    )
                }
                throw DownloadError.transferFailed(
                    "GET \(url.absoluteString) bytes \(start)-\(end) answered HTTP \(status)")
            }
            if let contentRange, !contentRange.hasPrefix("bytes \(start)-\(end)/") {
                throw DownloadError.transferFailed(
                    "\(url.absoluteString) sent Content-Range \(contentRange) for bytes \(start)-\(end)")
            }
            guard Int64(data.count) == end - start + 1 else {
                throw DownloadError.transferFailed(
                    "\(url.absoluteString) sent \(data.count) bytes for bytes \(start)-\(end)")
            }
            position.advance(by: Int64(data.count))
            return Array(data)
        })
    }

    private func get(_ url: URL, range: (Int64, Int64)?) async throws(DownloadError) -> (Int, Data, String?) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        if let (start, end) = range { request.setValue("bytes=\(start)-\(end)", forHTTPHeaderField: "Range") }
        let session = lazySession.session
        do {
            return try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                        return
                    }
                    let http = response as? HTTPURLResponse
                    continuation.resume(
                        returning: (
                            http?.statusCode ?? 0, data ?? Data(), http?.value(forHTTPHeaderField: "Content-Range")
                        ))
                }.resume()
            }
        } catch {
            throw .transferFailed("GET \(url.absoluteString): \(error.localizedDescription)")
        }
    }
}

/// The next byte a ranged stream asks for.
private final class HTTPPosition: Sendable {
    private let current: Mutex<Int64>

    init(_ start: Int64) { current = Mutex(start) }

    var value: Int64 { current.withLock { $0 } }

    func advance(by count: Int64) { current.withLock { $0 += count } }
}
