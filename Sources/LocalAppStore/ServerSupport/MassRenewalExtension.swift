import Foundation

/// A renewal-date extension for every active subscriber of a product (Extend Subscription
/// Renewal Dates for All Active Subscribers), kept for its status request. The local store
/// applies it at once, so it is complete when recorded.
public struct MassRenewalExtension: Codable, Hashable, Sendable {
    /// The caller's request identifier.
    public var requestIdentifier: String
    /// The product whose subscribers were extended.
    public var productID: String
    /// Days asked for (1…90).
    public var days: Int
    /// Apple's `extendReasonCode`.
    public var reasonCode: Int
    /// The storefronts it was limited to (alpha-3), empty for all.
    public var storefronts: [String]
    /// When it completed (store clock).
    public var completeDate: Date
    /// Subscriptions extended.
    public var succeededCount: Int
    /// Subscriptions that could not be extended.
    public var failedCount: Int

    /// Creates a record.
    public init(
        requestIdentifier: String, productID: String, days: Int, reasonCode: Int, storefronts: [String],
        completeDate: Date, succeededCount: Int, failedCount: Int
    ) {
        self.requestIdentifier = requestIdentifier
        self.productID = productID
        self.days = days
        self.reasonCode = reasonCode
        self.storefronts = storefronts
        self.completeDate = completeDate
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
