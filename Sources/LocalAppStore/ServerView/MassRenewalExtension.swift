import Foundation

/// A renewal-date extension for every active subscriber of a product (Extend Subscription
/// Renewal Dates for All Active Subscribers), kept for its status request. The local store
/// applies it at once, so it is complete when recorded.
package struct MassRenewalExtension: Codable, Hashable, Sendable {
    /// The caller's request identifier.
    package var requestIdentifier: String
    /// The product whose subscribers were extended.
    package var productID: String
    /// Days asked for (1…90).
    package var days: Int
    /// Apple's `extendReasonCode`.
    package var reasonCode: Int
    /// The storefronts it was limited to (alpha-3), empty for all.
    package var storefronts: [String]
    /// When it completed (store clock).
    package var completeDate: Date
    /// Subscriptions extended.
    package var succeededCount: Int
    /// Subscriptions that could not be extended.
    package var failedCount: Int
}
