/// Apple's `UploadMessageRequestBody` (Upload Message), decoded leniently: each member is
/// checked by the store, so a missing one is reported by name.
struct UploadMessageRequestBody: Codable, Hashable, Sendable {
    /// Apple's `UploadMessageImage`.
    struct UploadMessageImage: Codable, Hashable, Sendable {
        var imageIdentifier: String?
        var altText: String?
    }

    /// Apple's `BulletPoint`.
    struct BulletPoint: Codable, Hashable, Sendable {
        var text: String?
        var imageIdentifier: String?
        var altText: String?
    }

    var header: String?
    var body: String?
    var image: UploadMessageImage?
    var headerPosition: String?
    var bulletPoints: [BulletPoint]?
}
