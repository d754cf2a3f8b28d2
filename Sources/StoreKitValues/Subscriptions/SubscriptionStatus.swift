import Foundation

/// Where a subscription group stands for the account right now (StoreKit 2's `Product.SubscriptionInfo.Status`).
public struct SubscriptionStatus: Hashable, Sendable {
    /// The state of a subscription, stored raw.
    public struct State: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
        /// The state's name, as StoreKit 2 spells it.
        public let rawValue: String
        /// Wraps a state name, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Active: the current period has not ended.
        public static let subscribed = State(rawValue: "subscribed")
        /// Ended: renewal was turned off, failed for good, or the product was upgraded.
        public static let expired = State(rawValue: "expired")
        /// The period ended and a renewal failed; the App Store keeps trying to bill.
        public static let inBillingRetryPeriod = State(rawValue: "inBillingRetryPeriod")
        /// A renewal failed, but access continues until the grace period ends.
        public static let inGracePeriod = State(rawValue: "inGracePeriod")
        /// Refunded or revoked.
        public static let revoked = State(rawValue: "revoked")
        public var description: String { rawValue }
    }

    /// The subscription group's identifier.
    public let groupID: String
    /// Where the group's latest subscription stands.
    public let state: State
    /// The latest transaction of the group.
    public let transaction: PurchaseRecord
    /// The store's renewal info for it, when known.
    public let renewalInfo: RenewalInfo?

    /// Creates a status (the engine computes them; an app makes one for a test fixture or a
    /// preview).
    /// - Parameters:
    ///   - groupID: the subscription group's identifier.
    ///   - state: where the group's latest subscription stands.
    ///   - transaction: the latest transaction of the group.
    ///   - renewalInfo: the store's renewal info for it, when known.
    public init(groupID: String, state: State, transaction: PurchaseRecord, renewalInfo: RenewalInfo? = nil) {
        self.groupID = groupID
        self.state = state
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }
}
