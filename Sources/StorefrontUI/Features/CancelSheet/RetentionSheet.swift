import Foundation
import StoreKitValues

/// What the App Store shows a customer who begins to cancel a subscription (Apple's retention
/// messaging): the message the developer's Get Retention Message endpoint chose, or the default
/// message, or none; and what the customer may do besides cancelling.
public struct RetentionSheet: Hashable, Sendable {
    /// What was shown, as the store's realtime log names it.
    public enum Shown: String, Hashable, Sendable {
        /// A message the endpoint answered.
        case message
        /// A switch-plan message: another subscription of the group.
        case alternateProduct
        /// A promotional offer with its signature.
        case promotionalOffer
        /// The default message of the product and locale (the answer failed or was unusable).
        case defaultMessage
        /// No message.
        case none
    }

    /// A retention message as the customer reads it (the developer's words, not translated).
    public struct Message: Hashable, Sendable {
        /// The header.
        public let header: String
        /// The body.
        public let body: String
        /// The full-size image in words (its alternative text and size); nil when it has none.
        public let image: String?
        /// Whether the header stands above the image (`ABOVE_IMAGE`) rather than the body.
        public let headerAboveImage: Bool
        /// Each bullet point: its text and its image's alternative text.
        public let bulletPoints: [BulletPoint]

        /// Creates a message.
        public init(header: String, body: String, image: String?, headerAboveImage: Bool, bulletPoints: [BulletPoint]) {
            self.header = header
            self.body = body
            self.image = image
            self.headerAboveImage = headerAboveImage
            self.bulletPoints = bulletPoints
        }
    }

    /// A bullet point: its text, and its icon in words.
    public struct BulletPoint: Hashable, Sendable {
        /// The text.
        public let text: String
        /// The icon's alternative text.
        public let icon: String

        /// Creates a bullet point.
        public init(text: String, icon: String) {
            self.text = text
            self.icon = icon
        }
    }

    /// The realtime request this answers (the store's log's key).
    public let requestIdentifier: UUID
    /// The subscription being cancelled: its original transaction ID.
    public let originalTransactionID: String
    /// The subscription's product.
    public let productID: String
    /// What was shown.
    public let shown: Shown
    /// The message shown, if any.
    public let message: Message?
    /// The subscription a switch-plan message suggests.
    public let alternateProductID: String?
    /// The promotional offer the customer may take.
    public let offer: RetentionPromotionalOffer?
    /// Why the endpoint's answer was not shown, when it was not.
    public let fallbackReason: String?

    /// Creates a sheet.
    public init(
        requestIdentifier: UUID, originalTransactionID: String, productID: String, shown: Shown, message: Message?,
        alternateProductID: String?, offer: RetentionPromotionalOffer?, fallbackReason: String?
    ) {
        self.requestIdentifier = requestIdentifier
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.shown = shown
        self.message = message
        self.alternateProductID = alternateProductID
        self.offer = offer
        self.fallbackReason = fallbackReason
    }

    /// The customer's choices, in the order the sheet lists them: the offer, the switch (when
    /// the answer gave them), cancelling anyway, and keeping the subscription.
    public var choices: [RetentionChoice] {
        (offer == nil ? [] : [.takeOffer]) + (alternateProductID == nil ? [] : [.switchProduct]) + [
            .cancelAnyway, .keep,
        ]
    }
}

/// What a customer does on the retention sheet.
public enum RetentionChoice: String, Hashable, Sendable, CaseIterable {
    /// Buy the promotional offer the endpoint signed.
    case takeOffer = "offer"
    /// Buy the subscription the endpoint suggested instead.
    case switchProduct = "switch"
    /// Turn auto-renew off.
    case cancelAnyway = "cancel"
    /// Close the sheet and keep the subscription as it is.
    case keep
}
