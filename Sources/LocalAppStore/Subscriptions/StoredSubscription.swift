/// A subscription as the store's journal keeps it: whose it is, and its lifecycle.
struct StoredSubscription: Codable, Hashable, Sendable {
    /// The account it belongs to.
    var accountID: String
    /// Its periods, renewals, billing state and expiry.
    var lifecycle: SubscriptionLifecycle
    /// Renewals still charged at the introductory (pay-as-you-go) price.
    var discountedRenewalsLeft: Int = 0
    /// The transaction of the current period.
    var latestTransactionID: String
}
