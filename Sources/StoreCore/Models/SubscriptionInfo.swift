/// What makes a product a subscription: its group, level, period and offers.
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

    /// Creates subscription details.
    public init(
        groupID: String, groupDisplayName: String, groupLevel: Int, period: SubscriptionPeriod,
        introductoryOffer: SubscriptionOffer?, promotionalOffers: [SubscriptionOffer]
    ) {
        self.groupID = groupID
        self.groupDisplayName = groupDisplayName
        self.groupLevel = groupLevel
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
    }
}
