import Foundation

/// A message uploaded for retention messaging (Apple's `Upload Message`): its text, optional
/// image and bullet points, and its review state.
public struct RetentionMessage: Codable, Hashable, Sendable {
    /// Apple's `headerPosition`: where the header stands.
    public enum HeaderPosition: String, Codable, Hashable, Sendable, CaseIterable {
        /// Above the body (the default), which is below the image.
        case aboveBody = "ABOVE_BODY"
        /// Above the image (needs one).
        case aboveImage = "ABOVE_IMAGE"
    }

    /// Apple's `UploadMessageImage`: a full-size image with its alternative text.
    public struct Image: Codable, Hashable, Sendable {
        /// The image's identifier.
        public let imageIdentifier: UUID
        /// What the image shows, for a customer who cannot see it.
        public let altText: String
    }

    /// Apple's `BulletPoint`: a line of text with a bullet-point image.
    public struct BulletPoint: Codable, Hashable, Sendable {
        /// The bullet point's text.
        public let text: String
        /// The identifier of its image (one uploaded as `BULLET_POINT`).
        public let imageIdentifier: UUID
        /// What the image shows.
        public let altText: String
    }

    /// What a developer uploads: Apple's `UploadMessageRequestBody`.
    public struct Content: Codable, Hashable, Sendable {
        /// The header text (at most 66 characters).
        public let header: String
        /// The body text (at most 144 characters).
        public let body: String
        /// The optional full-size image.
        public let image: Image?
        /// Where the header stands, stored raw; nil is `ABOVE_BODY`.
        public let rawHeaderPosition: String?
        /// Up to five bullet points.
        public let bulletPoints: [BulletPoint]

        /// Where the header stands.
        public var headerPosition: HeaderPosition { rawHeaderPosition.flatMap(HeaderPosition.init) ?? .aboveBody }

        /// The identifiers of every image it shows, the full-size one first.
        public var imageIdentifiers: [UUID] {
            (image.map { [$0.imageIdentifier] } ?? []) + bulletPoints.map(\.imageIdentifier)
        }

        /// Whether it is text alone: what switch-plan and promotional-offer messages must be.
        public var isTextOnly: Bool { image == nil && bulletPoints.isEmpty }
    }

    /// The identifier the developer gave it.
    public let identifier: UUID
    /// What it says and shows.
    public let content: Content
    /// Its review state, stored raw so a newer version's survive.
    public var rawState: String
    /// When it was uploaded, on the store clock.
    public let uploaded: Date

    /// Its review state, when this version knows it.
    public var state: RetentionReviewState? { RetentionReviewState(rawValue: rawState) }
    /// Whether the App Store may show it.
    public var isApproved: Bool { state == .approved }
}
