import Foundation
import StoreCore

extension LocalAppStore {
    /// The manifest of `productID`'s hosted content from the catalog's content sidecar.
    public func contentManifest(productID: String) async throws(StoreError) -> ContentManifest? {
        configuration.catalog.content[productID]?.manifest
    }

    /// Serves one file of hosted content from byte `offset`, at the `bandwidth` setting and
    /// failing at `fail-downloads-at` when set.
    public nonisolated func contentBytes(
        productID: String, version: String, path: String, offset: Int64
    ) -> AsyncThrowingStream<[UInt8], any Error> {
        let catalog = configuration.catalog
        let clock = configuration.clock
        let fileSystem = configuration.fileSystem
        guard let content = catalog.content[productID], content.version == version,
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
        return AsyncThrowingStream(unfolding: { [self] in
            if streamer.value == nil {
                let settings: LocalStoreSettings
                do {
                    settings = try await self.currentSettings()
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
