/// The payment mode of a subscription offer (Apple's `offerDiscountType`).
public enum OfferDiscountType: String, Codable, Hashable, Sendable, CaseIterable {
    /// A free trial.
    case freeTrial = "FREE_TRIAL"
    /// A discounted price for each period of the offer.
    case payAsYouGo = "PAY_AS_YOU_GO"
    /// One discounted price paid up front for the offer's whole duration.
    case payUpFront = "PAY_UP_FRONT"
    /// A one-time charge (Advanced Commerce).
    case oneTime = "ONE_TIME"
}
