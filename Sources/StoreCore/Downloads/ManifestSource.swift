/// Where a product's content manifest comes from: the store first, then the app's own
/// `ContentDownloader` (self-hosted content).
struct ManifestSource: Sendable {
    let backend: any StoreBackend
    let contentDownloader: (any ContentDownloader)?

    /// The manifest of `productID`'s content and its source (`store` or `self-hosted`);
    /// `nil` when the product has no content.
    func manifest(for productID: String) async throws(DownloadError) -> (ContentManifest, DownloadSource)? {
        if let hosted = try await HostedContentDownloader(backend: backend).manifest(forProductID: productID) {
            return (hosted, .store)
        }
        if let own = contentDownloader, let manifest = try await own.manifest(forProductID: productID) {
            return (manifest, .selfHosted)
        }
        return nil
    }

    /// Asks again for the manifest a failed first attempt could not get, and starts the
    /// record's download afresh with it.
    func refetch(into record: inout DownloadRecord) async throws(DownloadError) {
        let productID = record.download.productID
        guard let (manifest, source) = try await self.manifest(for: productID) else {
            throw .noContent(productID: productID)
        }
        if let problem = manifest.problem ?? Self.productIDProblem(manifest.productID) {
            throw .invalidManifest(problem)
        }
        let old = record.download
        record.manifest = manifest
        record.source = source
        record.needsManifest = nil
        record.download = Download(
            id: old.id, transactionID: old.transactionID, productID: productID, contentVersion: manifest.version,
            state: .active, bytesWritten: 0, totalBytes: manifest.totalBytes)
    }

    /// The source of a record's bytes.
    func contentSource(for record: DownloadRecord) -> any ContentDownloader {
        if record.source == .selfHosted, let own = contentDownloader { return own }
        return HostedContentDownloader(backend: backend)
    }

    /// Why `productID` cannot name a directory of `Content/`, or `nil` when it can.
    static func productIDProblem(_ productID: String) -> String? {
        if productID.isEmpty || productID.hasPrefix(".") || productID.contains("/") || productID.utf8.contains(0) {
            return "the product identifier \"\(productID)\" is not usable as a directory name"
        }
        return nil
    }
}
