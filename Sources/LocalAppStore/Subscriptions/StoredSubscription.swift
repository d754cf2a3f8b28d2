/// A subscription as the store's journal keeps it: whose it is, and its lifecycle.
struct StoredSubscription: Codable, Hashable, Sendable {
    /// The account it belongs to.
    var accountID: String
    /// Its periods, renewals, billing state and expiry.
    var lifecycle: SubscriptionLifecycle
    /// Renewals still charged at an offer's price: the introductory offer's (pay as you go)
    /// or, when `discountOfferID` is set, that promotional offer's.
    var discountedRenewalsLeft: Int = 0
    /// The promotional offer the discounted renewals come from; nil for the introductory offer.
    var discountOfferID: String?
    /// The transaction of the current period.
    var latestTransactionID: String
}
