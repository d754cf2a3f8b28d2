import Foundation

/// An image uploaded for retention messaging (Apple's `Upload Image`), as the store keeps it:
/// its identifier, size class, review state and what the PNG's header says. The bytes live
/// beside the state, in `retention/images/IDENTIFIER.png`.
public struct RetentionImage: Codable, Hashable, Sendable {
    /// Apple's `imageSize`: where an image may be used.
    public enum Size: String, Codable, Hashable, Sendable, CaseIterable {
        /// Above a message's body (`UploadMessageImage`).
        case fullSize = "FULL_SIZE"
        /// As a bullet point's icon (`BulletPoint`).
        case bulletPoint = "BULLET_POINT"
    }

    /// The identifier the developer gave it.
    public let identifier: UUID
    /// Its size class, stored raw so a newer version's survive.
    public var rawSize: String
    /// Its review state, stored raw so a newer version's survive.
    public var rawState: String
    /// Its width in pixels.
    public let width: Int
    /// Its height in pixels.
    public let height: Int
    /// The PNG file's length in bytes.
    public let byteCount: Int
    /// When it was uploaded, on the store clock.
    public let uploaded: Date

    /// Creates an image record.
    public init(
        identifier: UUID, size: Size, state: RetentionReviewState, width: Int, height: Int, byteCount: Int,
        uploaded: Date
    ) {
        self.identifier = identifier
        self.rawSize = size.rawValue
        self.rawState = state.rawValue
        self.width = width
        self.height = height
        self.byteCount = byteCount
        self.uploaded = uploaded
    }

    /// Its size class, when this version knows it.
    public var size: Size? { Size(rawValue: rawSize) }
    /// Its review state, when this version knows it.
    public var state: RetentionReviewState? { RetentionReviewState(rawValue: rawState) }
    /// Whether the App Store may show it.
    public var isApproved: Bool { state == .approved }

    /// The image as a customer who cannot see it is told of it: `3840×1080 PNG`.
    public var dimensions: String { "\(width)×\(height) PNG" }
}
