import Foundation

/// A promotional offer a retention answer carries (Apple's realtime `promotionalOffer`), ready
/// to buy with: the subscription, the offer its developer's server signed, and the app account
/// token the signature covers. The local App Store's answer and the storefront's cancel sheet
/// speak this one type.
public struct RetentionPromotionalOffer: Hashable, Sendable {
    /// The subscription the offer is for.
    public let productID: String
    /// The signed offer, as StoreKit applies it.
    public let offer: PromotionalOffer
    /// The app account token the signature covers, if any.
    public let appAccountToken: UUID?

    /// Creates an offer.
    public init(productID: String, offer: PromotionalOffer, appAccountToken: UUID?) {
        self.productID = productID
        self.offer = offer
        self.appAccountToken = appAccountToken
    }
}
