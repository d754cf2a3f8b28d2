import Foundation
import StoreCore

/// Hosted content, served as the App Store serves it: one file of a product's content from a
/// byte offset, chunk by chunk, at the `bandwidth` setting and failing at `fail-downloads-at`.
/// The app reaches it through the `StoreBackend` surface (`contentBytes`); it has no door.
struct ContentDelivery: Sendable {
    let store: LocalAppStore

    /// Serves one file of hosted content from byte `offset`; the stream throws a
    /// `DownloadError` for content the catalog does not have, an offset outside the file, or
    /// when the transfer fails.
    func bytes(
        productID: String, version: String, path: String, offset: Int64
    ) -> AsyncThrowingStream<[UInt8], any Error> {
        let configuration = store.configuration
        let clock = configuration.clock
        let fileSystem = configuration.fileSystem
        guard let content = configuration.catalog.content[productID], content.version == version,
            let index = content.files.firstIndex(where: { $0.path == path })
        else {
            return AsyncThrowingStream { $0.finish(throwing: DownloadError.noContent(productID: productID)) }
        }
        let file = content.files[index]
        guard offset >= 0, offset <= file.size else {
            return AsyncThrowingStream {
                $0.finish(
                    throwing: DownloadError.transferFailed("offset \(offset) is outside \(path) (\(file.size) bytes)"))
            }
        }
        let before = content.files[..<index].reduce(Int64(0)) { $0 + $1.size }
        let streamer = ContentStreamerBox()
        let settingsPart = store.settings
        return AsyncThrowingStream(unfolding: {
            if streamer.value == nil {
                let settings: LocalStoreSettings
                do {
                    settings = try await settingsPart.current()
                } catch {
                    throw DownloadError.transferFailed("the store's settings cannot be read: \(error)")
                }
                streamer.set(
                    ContentStreamer(
                        url: content.url(of: file), path: path, size: file.size, offset: offset, contentOffset: before,
                        contentTotal: content.manifest.totalBytes, bandwidth: settings.bandwidthBytesPerSecond,
                        failAtPercent: settings.failDownloadsAtPercent, clock: clock, fileSystem: fileSystem))
            }
            return try await streamer.value?.next()
        })
    }
}
