import Foundation

/// A subscription's signed renewal info, named as Apple's `JWSRenewalInfoDecodedPayload`.
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable, JWSSharedFields {
    /// Why the subscription expired, as stored (see `expirationIntent`).
    public var rawExpirationIntent: Int32?
    /// The original transaction of the subscription.
    public var originalTransactionId: String?
    /// The product that will renew.
    public var autoRenewProductId: String?
    /// The product the customer is subscribed to now.
    public var productId: String?
    /// Whether it will renew, as stored (see `autoRenewStatus`).
    public var rawAutoRenewStatus: Int32?
    /// Whether the App Store is still trying to bill.
    public var isInBillingRetryPeriod: Bool?
    /// The price increase status, as stored (see `priceIncreaseStatus`).
    public var rawPriceIncreaseStatus: Int32?
    /// When the billing grace period ends.
    public var gracePeriodExpiresDate: Date?
    /// The offer type at renewal, as stored (see `offerType`).
    public var rawOfferType: Int32?
    /// The offer identifier at renewal.
    public var offerIdentifier: String?
    /// When the App Store signed this payload.
    public var signedDate: Date?
    /// The environment, as stored (see `environment`).
    public var rawEnvironment: String?
    /// The start of the current run of uninterrupted renewals.
    public var recentSubscriptionStartDate: Date?
    /// When the subscription renews.
    public var renewalDate: Date?
    /// The renewal price in milliunits of `currency`.
    public var renewalPrice: Int64?
    /// The ISO 4217 currency code of the renewal price.
    public var currency: String?
    /// The payment mode of the offer at renewal, as stored (see `offerDiscountType`).
    public var rawOfferDiscountType: String?
    /// Win-back offers the customer may redeem, best first.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID the app associated with the subscription, lowercase (see `appAccountToken`).
    public var rawAppAccountToken: String?
    /// The identifier of the app download transaction.
    public var appTransactionId: String?
    /// The duration of the offer at renewal, ISO 8601.
    public var offerPeriod: String?
    /// How the next billing period will be paid for, as stored (see `renewalBillingPlanType`).
    public var rawRenewalBillingPlanType: String?
    /// What happens when the current 12-month commitment ends.
    public var commitmentInfo: RenewalCommitmentInfo?

    enum CodingKeys: String, CodingKey {
        case rawExpirationIntent = "expirationIntent"
        case originalTransactionId, autoRenewProductId, productId
        case rawAutoRenewStatus = "autoRenewStatus"
        case isInBillingRetryPeriod
        case rawPriceIncreaseStatus = "priceIncreaseStatus"
        case gracePeriodExpiresDate
        case rawOfferType = "offerType"
        case offerIdentifier, signedDate
        case rawEnvironment = "environment"
        case recentSubscriptionStartDate, renewalDate, renewalPrice, currency
        case rawOfferDiscountType = "offerDiscountType"
        case eligibleWinBackOfferIds
        case rawAppAccountToken = "appAccountToken"
        case appTransactionId, offerPeriod
        case rawRenewalBillingPlanType = "renewalBillingPlanType"
        case commitmentInfo
    }

    /// Creates an empty payload; set the fields that apply.
    public init() {}

    /// Why the subscription expired, when known.
    public var expirationIntent: ExpirationIntent? {
        get { self[typed: \.rawExpirationIntent] }
        set { self[typed: \.rawExpirationIntent] = newValue }
    }

    /// Whether it will renew, when known.
    public var autoRenewStatus: AutoRenewStatus? {
        get { self[typed: \.rawAutoRenewStatus] }
        set { self[typed: \.rawAutoRenewStatus] = newValue }
    }

    /// How the next billing period will be paid for, when known.
    public var renewalBillingPlanType: RenewalBillingPlanType? {
        get { self[typed: \.rawRenewalBillingPlanType] }
        set { self[typed: \.rawRenewalBillingPlanType] = newValue }
    }

    /// The price increase status, when known.
    public var priceIncreaseStatus: PriceIncreaseStatus? {
        get { self[typed: \.rawPriceIncreaseStatus] }
        set { self[typed: \.rawPriceIncreaseStatus] = newValue }
    }
}
