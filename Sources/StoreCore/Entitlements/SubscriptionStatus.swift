import Foundation

/// Where a subscription group stands for the account right now (StoreKit 2's `Product.SubscriptionInfo.Status`).
public struct SubscriptionStatus: Hashable, Sendable {
    /// The state of a subscription, stored raw.
    public struct State: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let subscribed = State(rawValue: "subscribed")
        public static let expired = State(rawValue: "expired")
        public static let inBillingRetryPeriod = State(rawValue: "inBillingRetryPeriod")
        public static let inGracePeriod = State(rawValue: "inGracePeriod")
        public static let revoked = State(rawValue: "revoked")
        public var description: String { rawValue }
    }

    public let groupID: String
    public let state: State
    /// The latest transaction of the group.
    public let transaction: PurchaseRecord
    /// The store's renewal info for it, when known.
    public let renewalInfo: RenewalInfo?

    public init(groupID: String, state: State, transaction: PurchaseRecord, renewalInfo: RenewalInfo?) {
        self.groupID = groupID
        self.state = state
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }
}
