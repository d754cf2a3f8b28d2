import Foundation

/// A StoreKit 2 signed transaction's payload, named as Apple's `JWSTransactionDecodedPayload`.
/// Dates travel as milliseconds since 1970; enums are stored raw so new values survive.
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable, JWSSharedFields {
    /// The transaction's identifier.
    public var transactionId: String?
    /// The identifier of the original purchase.
    public var originalTransactionId: String?
    /// The identifier of one subscription period across devices.
    public var webOrderLineItemId: String?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The product identifier.
    public var productId: String?
    /// The subscription group of a subscription.
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged (or restored, or renewed).
    public var purchaseDate: Date?
    /// When the original transaction was made.
    public var originalPurchaseDate: Date?
    /// When the subscription expires or renews.
    public var expiresDate: Date?
    /// The number of items bought.
    public var quantity: Int32?
    /// The product type, as stored (see `type`).
    public var rawType: String?
    /// The UUID the app associated with the purchase, as sent: lowercase, as Apple sends it
    /// (see `appAccountToken`).
    public var rawAppAccountToken: String?
    /// The ownership type, as stored (see `inAppOwnershipType`).
    public var rawInAppOwnershipType: String?
    /// When the App Store signed this payload.
    public var signedDate: Date?
    /// Why the transaction was refunded or revoked, as stored (see `revocationReason`).
    public var rawRevocationReason: Int32?
    /// When the transaction was refunded or revoked.
    public var revocationDate: Date?
    /// Whether the customer upgraded to another subscription.
    public var isUpgraded: Bool?
    /// The offer type, as stored (see `offerType`).
    public var rawOfferType: Int32?
    /// The offer's identifier.
    public var offerIdentifier: String?
    /// The environment, as stored (see `environment`).
    public var rawEnvironment: String?
    /// The storefront's ISO 3166-1 alpha-3 code.
    public var storefront: String?
    /// Apple's storefront identifier.
    public var storefrontId: String?
    /// Why the transaction happened, as stored (see `transactionReason`).
    public var rawTransactionReason: String?
    /// The price in milliunits of `currency` (1.99 → 1990).
    public var price: Int64?
    /// The ISO 4217 currency code.
    public var currency: String?
    /// The offer's payment mode, as stored (see `offerDiscountType`).
    public var rawOfferDiscountType: String?
    /// The identifier of the app download transaction (the app transaction's `appTransactionId`).
    public var appTransactionId: String?
    /// The duration of the offer, ISO 8601 (`P1M`, `P2M`, `P3D`).
    public var offerPeriod: String?
    /// The kind of refund or revocation, as stored (see `revocationType`); only while refunded.
    public var rawRevocationType: String?
    /// How much of the transaction was refunded or revoked, in milliunits of a percent
    /// (100% → 100000, 67.932% → 67932); only while refunded, not after a reversal.
    public var revocationPercentage: Int32?
    /// How the subscription was paid for, as stored (see `billingPlanType`).
    public var rawBillingPlanType: String?
    /// Where a monthly payment stands in its 12-month commitment.
    public var commitmentInfo: TransactionCommitmentInfo?

    enum CodingKeys: String, CodingKey {
        case transactionId, originalTransactionId, webOrderLineItemId, bundleId, productId
        case subscriptionGroupIdentifier, purchaseDate, originalPurchaseDate, expiresDate, quantity
        case rawType = "type"
        case rawAppAccountToken = "appAccountToken"
        case rawInAppOwnershipType = "inAppOwnershipType"
        case signedDate
        case rawRevocationReason = "revocationReason"
        case revocationDate, isUpgraded
        case rawOfferType = "offerType"
        case offerIdentifier
        case rawEnvironment = "environment"
        case storefront, storefrontId
        case rawTransactionReason = "transactionReason"
        case price, currency
        case rawOfferDiscountType = "offerDiscountType"
        case appTransactionId, offerPeriod
        case rawRevocationType = "revocationType"
        case revocationPercentage
        case rawBillingPlanType = "billingPlanType"
        case commitmentInfo
    }

    /// Creates an empty payload; set the fields that apply.
    public init() {}

    /// The product type, when known.
    public var type: AppStoreProductType? {
        get { self[typed: \.rawType] }
        set { self[typed: \.rawType] = newValue }
    }

    /// The ownership type, when known.
    public var inAppOwnershipType: InAppOwnershipType? {
        get { self[typed: \.rawInAppOwnershipType] }
        set { self[typed: \.rawInAppOwnershipType] = newValue }
    }

    /// The revocation reason, when known.
    public var revocationReason: RevocationReason? {
        get { self[typed: \.rawRevocationReason] }
        set { self[typed: \.rawRevocationReason] = newValue }
    }

    /// The kind of refund or revocation, when known.
    public var revocationType: RevocationType? {
        get { self[typed: \.rawRevocationType] }
        set { self[typed: \.rawRevocationType] = newValue }
    }

    /// How the subscription was paid for, when known.
    public var billingPlanType: BillingPlanType? {
        get { self[typed: \.rawBillingPlanType] }
        set { self[typed: \.rawBillingPlanType] = newValue }
    }

    /// The transaction reason, when known.
    public var transactionReason: TransactionReason? {
        get { self[typed: \.rawTransactionReason] }
        set { self[typed: \.rawTransactionReason] = newValue }
    }
}
