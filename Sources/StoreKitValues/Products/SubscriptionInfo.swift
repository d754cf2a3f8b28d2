/// What makes a product a subscription: its group, level, period, offers and billing plans.
public struct SubscriptionInfo: Codable, Hashable, Sendable {
    /// The subscription group's identifier.
    public let groupID: String
    /// The group's localized display name.
    public let groupDisplayName: String
    /// The level within the group: 1 is the highest service level.
    public let groupLevel: Int
    /// How long one renewal period lasts.
    public let period: SubscriptionPeriod
    /// The introductory offer, if the product has one.
    public let introductoryOffer: SubscriptionOffer?
    /// Promotional offers the app may present.
    public let promotionalOffers: [SubscriptionOffer]
    /// Win-back offers for lapsed subscribers (StoreKit 2's `winBackOffers`), bought with
    /// `PurchaseOptions.winBackOfferID`.
    public let winBackOffers: [SubscriptionOffer]
    /// Every way the subscription can be paid for in the storefront (StoreKit's
    /// `pricingTerms`), in the catalog's order; empty when the catalog gives no billing plans
    /// (then it is billed up front at the product's price). Disabled plans are left out.
    public let pricingTerms: [PricingTerms]

    /// Creates subscription details.
    public init(
        groupID: String, groupDisplayName: String, groupLevel: Int, period: SubscriptionPeriod,
        introductoryOffer: SubscriptionOffer?, promotionalOffers: [SubscriptionOffer],
        winBackOffers: [SubscriptionOffer] = [], pricingTerms: [PricingTerms] = []
    ) {
        self.groupID = groupID
        self.groupDisplayName = groupDisplayName
        self.groupLevel = groupLevel
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
        self.winBackOffers = winBackOffers
        self.pricingTerms = pricingTerms
    }

    /// The terms of `plan`, when the subscription is sold by it.
    public func pricingTerms(for plan: BillingPlanType) -> PricingTerms? {
        pricingTerms.first { $0.billingPlanType == plan }
    }

    enum CodingKeys: String, CodingKey {
        case groupID, groupDisplayName, groupLevel, period, introductoryOffer, promotionalOffers, winBackOffers
        case pricingTerms
    }

    /// Decodes subscription details; those encoded before win-back offers or pricing terms
    /// were carried have none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            groupID: try c.decode(String.self, forKey: .groupID),
            groupDisplayName: try c.decode(String.self, forKey: .groupDisplayName),
            groupLevel: try c.decode(Int.self, forKey: .groupLevel),
            period: try c.decode(SubscriptionPeriod.self, forKey: .period),
            introductoryOffer: try c.decodeIfPresent(SubscriptionOffer.self, forKey: .introductoryOffer),
            promotionalOffers: try c.decode([SubscriptionOffer].self, forKey: .promotionalOffers),
            winBackOffers: try c.decodeIfPresent([SubscriptionOffer].self, forKey: .winBackOffers) ?? [],
            pricingTerms: try c.decodeIfPresent([PricingTerms].self, forKey: .pricingTerms) ?? [])
    }
}
