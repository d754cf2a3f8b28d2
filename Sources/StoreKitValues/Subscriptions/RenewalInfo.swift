import Foundation

/// What the store says about a subscription's next renewal (StoreKit 2's `RenewalInfo`).
public struct RenewalInfo: Codable, Hashable, Sendable {
    /// Why a subscription expired, as Apple codes it; stored raw.
    public struct ExpirationIntent: RawRepresentable, Codable, Hashable, Sendable {
        /// Apple's code: 1 cancelled, 2 billing error, 3 price increase, 4 product unavailable, 5 unknown.
        public let rawValue: Int
        /// Wraps a code, known or not.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The customer cancelled.
        public static let cancelled = ExpirationIntent(rawValue: 1)
        /// Billing failed.
        public static let billingError = ExpirationIntent(rawValue: 2)
        /// The customer did not consent to a price increase.
        public static let priceIncrease = ExpirationIntent(rawValue: 3)
        /// The product was no longer available.
        public static let productUnavailable = ExpirationIntent(rawValue: 4)
        /// Another reason.
        public static let unknown = ExpirationIntent(rawValue: 5)
    }

    /// The original transaction of the subscription.
    public var originalTransactionID: String
    /// The product the subscription currently is.
    public var currentProductID: String
    /// The product it renews into (differs after a downgrade or crossgrade).
    public var autoRenewProductID: String
    /// Whether the subscription renews at the end of the current period.
    public var willAutoRenew: Bool
    /// Why the subscription expired, once it did.
    public var expirationIntent: ExpirationIntent?
    /// Whether the store keeps trying to bill after a failed renewal.
    public var isInBillingRetry: Bool
    /// Until when access continues while billing is retried, when a grace period applies.
    public var gracePeriodExpiresDate: Date?
    /// When the latest period ends: the next renewal date, or when it expired (auto-renew off,
    /// expired, refunded; may be in the past). Always set for an auto-renewable subscription.
    public var renewalDate: Date?
    /// The StoreKit 2 signed renewal info (JWS), when the store issued one.
    public var signedRenewalInfo: String?
    /// The plan the next billing period is paid by (`billedUpfront`, `monthly`).
    public var renewalBillingPlanType: BillingPlanType?
    /// What happens when the current 12-month commitment ends, while one runs.
    public var commitmentInfo: CommitmentInfo?

    /// Creates renewal info; the product renews into itself unless `autoRenewProductID` says otherwise.
    public init(
        originalTransactionID: String, currentProductID: String, autoRenewProductID: String? = nil,
        willAutoRenew: Bool = true, expirationIntent: ExpirationIntent? = nil, isInBillingRetry: Bool = false,
        gracePeriodExpiresDate: Date? = nil, renewalDate: Date? = nil, signedRenewalInfo: String? = nil,
        renewalBillingPlanType: BillingPlanType? = nil, commitmentInfo: CommitmentInfo? = nil
    ) {
        self.originalTransactionID = originalTransactionID
        self.currentProductID = currentProductID
        self.autoRenewProductID = autoRenewProductID ?? currentProductID
        self.willAutoRenew = willAutoRenew
        self.expirationIntent = expirationIntent
        self.isInBillingRetry = isInBillingRetry
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.renewalDate = renewalDate
        self.signedRenewalInfo = signedRenewalInfo
        self.renewalBillingPlanType = renewalBillingPlanType
        self.commitmentInfo = commitmentInfo
    }
}
