import Foundation
import StoreCore

/// What the App Store shows a customer who begins to cancel a subscription: the retention
/// message chosen in real time, or the default one, or none; and what the customer can do
/// besides cancelling (take a promotional offer, switch to another subscription).
public struct RetentionOffer: Hashable, Sendable {
    /// The request this answers (`requestIdentifier`; the log's key).
    public let requestIdentifier: UUID
    /// What was shown: a realtime answer's kind, the default message, or nothing.
    public let shown: RealtimeExchange.Shown
    /// The message shown, if any.
    public let message: RetentionMessage?
    /// The images the message shows (its full-size image and bullet points'), by identifier.
    public let images: [UUID: RetentionImage]
    /// The subscription a switch-plan message suggests.
    public let alternateProductID: String?
    /// The promotional offer the customer may take, signed by the developer's server.
    public let promotionalOffer: RetentionPromotionalOffer?
    /// Why the realtime answer was not shown, when it was not.
    public let fallbackReason: String?

    /// Creates what a customer is shown.
    public init(
        requestIdentifier: UUID, shown: RealtimeExchange.Shown, message: RetentionMessage?,
        images: [UUID: RetentionImage], alternateProductID: String?, promotionalOffer: RetentionPromotionalOffer?,
        fallbackReason: String?
    ) {
        self.requestIdentifier = requestIdentifier
        self.shown = shown
        self.message = message
        self.images = images
        self.alternateProductID = alternateProductID
        self.promotionalOffer = promotionalOffer
        self.fallbackReason = fallbackReason
    }
}
