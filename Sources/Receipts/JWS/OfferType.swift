/// The kind of subscription offer applied (Apple's `offerType`).
public enum OfferType: Int32, Codable, Hashable, Sendable, CaseIterable {
    /// An introductory offer.
    case introductoryOffer = 1
    /// A promotional offer.
    case promotionalOffer = 2
    /// An offer code.
    case subscriptionOfferCode = 3
    /// A win-back offer.
    case winBackOffer = 4
}
