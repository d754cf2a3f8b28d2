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
}

extension RetentionOffer {
    /// What the customer sees for the judged answer to `request`: the answer's choice, else the
    /// default message of the product and locale when it can be shown, else nothing.
    package init(
        _ judged: Result<RealtimeAnswerCheck.Choice, RealtimeAnswerCheck.Refusal>,
        request: DecodedRealtimeRequestBody, state: RetentionState
    ) {
        let id = UUID(uuidString: request.requestIdentifier) ?? UUID()
        func images(_ message: RetentionMessage?) -> [UUID: RetentionImage] {
            var found: [UUID: RetentionImage] = [:]
            for image in message?.content.imageIdentifiers ?? [] { found[image] = state.image(image) }
            return found
        }
        switch judged {
        case .success(let choice):
            let shown: RealtimeExchange.Shown
            var alternate: String?
            var offer: RetentionPromotionalOffer?
            switch choice {
            case .message: shown = .message
            case .alternateProduct(_, let product):
                shown = .alternateProduct
                alternate = product
            case .promotionalOffer(_, let signed):
                shown = .promotionalOffer
                offer = signed
            }
            self.init(
                requestIdentifier: id, shown: shown, message: choice.message, images: images(choice.message),
                alternateProductID: alternate, promotionalOffer: offer, fallbackReason: nil)
        case .failure(let refusal):
            let fallback = state.defaultMessage(productID: request.productId, locale: request.userLocale)
                .flatMap { state.message($0.messageIdentifier) }
                .flatMap { state.unshowable($0) == nil ? $0 : nil }
            self.init(
                requestIdentifier: id, shown: fallback == nil ? .none : .defaultMessage, message: fallback,
                images: images(fallback), alternateProductID: nil, promotionalOffer: nil,
                fallbackReason: refusal.reason)
        }
    }
}
