/// Apple's `GetImageListResponse` (Get Image List).
struct GetImageListResponse: Codable, Hashable, Sendable {
    /// Apple's `GetImageListResponseItem`.
    struct Item: Codable, Hashable, Sendable {
        var imageIdentifier: String
        var imageState: String
        var imageSize: String
    }

    var imageIdentifiers: [Item]
}
