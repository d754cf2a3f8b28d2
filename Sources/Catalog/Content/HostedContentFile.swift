/// One file of a product's hosted content, as the content sidecar's manifest lists it.
public struct HostedContentFile: Sendable, Hashable {
    /// The path relative to the product's content directory, `/`-separated.
    public var path: String
    /// The size in bytes.
    public var size: Int64
    /// The lowercase hex SHA-256 of the file's bytes.
    public var sha256: String
}
