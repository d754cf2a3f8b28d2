/// Where a download's content comes from, stored raw in its record so a source a newer
/// version adds survives a round trip (an unknown source is read from the store).
struct DownloadSource: RawRepresentable, Codable, Hashable, Sendable {
    let rawValue: String  // `init(rawValue:)` is the memberwise one.

    /// The backend's hosted content (`StoreBackend.contentManifest`), as the App Store hosts it.
    static let store = DownloadSource(rawValue: "store")
    /// The app's own server, through `StoreConfiguration.contentDownloader`.
    static let selfHosted = DownloadSource(rawValue: "self-hosted")
    /// Not known yet: the first request for the manifest failed.
    static let unknown = DownloadSource(rawValue: "unknown")
}
