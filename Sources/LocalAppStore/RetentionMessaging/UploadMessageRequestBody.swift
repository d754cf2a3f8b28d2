import Foundation

/// Apple's `UploadMessageRequestBody` (Upload Message) as the request carries it, decoded
/// leniently: each member is checked as it becomes a message's content, so a missing one is
/// reported by name.
struct UploadMessageRequestBody: Decodable {
    /// Apple's `UploadMessageImage`.
    struct UploadMessageImage: Decodable {
        var imageIdentifier: String?
        var altText: String?
    }

    /// Apple's `BulletPoint`.
    struct BulletPoint: Decodable {
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

extension RetentionMessage.Content {
    /// The content an Upload Message request's body (`UploadMessageRequestBody` JSON) gives.
    /// - Throws: `.missingField` naming the member that is missing or not of its type (an
    ///   image identifier that is not a UUID among them).
    package init(uploadMessageRequestBody json: Data) throws(RetentionMessagingError) {
        guard let upload = try? JSONDecoder().decode(UploadMessageRequestBody.self, from: json) else {
            throw .missingField("UploadMessageRequestBody")
        }
        let header = try Self.member(upload.header, "header")
        let body = try Self.member(upload.body, "body")
        var image: RetentionMessage.Image?
        if let given = upload.image {
            image = RetentionMessage.Image(
                imageIdentifier: try Self.identifier(given.imageIdentifier, "image.imageIdentifier"),
                altText: try Self.member(given.altText, "image.altText"))
        }
        var bulletPoints: [RetentionMessage.BulletPoint] = []
        for point in upload.bulletPoints ?? [] {
            bulletPoints.append(
                RetentionMessage.BulletPoint(
                    text: try Self.member(point.text, "bulletPoints.text"),
                    imageIdentifier: try Self.identifier(point.imageIdentifier, "bulletPoints.imageIdentifier"),
                    altText: try Self.member(point.altText, "bulletPoints.altText")))
        }
        self.init(
            header: header, body: body, image: image, rawHeaderPosition: upload.headerPosition,
            bulletPoints: bulletPoints)
    }

    private static func member<Value>(_ value: Value?, _ name: String) throws(RetentionMessagingError) -> Value {
        guard let value else { throw .missingField(name) }
        return value
    }

    private static func identifier(_ text: String?, _ name: String) throws(RetentionMessagingError) -> UUID {
        guard let id = UUID(uuidString: try member(text, name)) else { throw .missingField(name) }
        return id
    }
}
