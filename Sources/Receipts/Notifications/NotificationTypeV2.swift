/// The event an App Store Server Notification V2 reports, as Apple's `notificationType`;
/// stored raw, so a type this build does not know survives a decode and encode.
/// `allCases` is every type Apple documents (as Apple's libraries' `NotificationTypeV2` lists).
public struct NotificationTypeV2: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible, CaseIterable {
    /// Apple's value, e.g. `SUBSCRIBED`.
    public let rawValue: String
    /// Wraps a value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The raw value.
    public var description: String { rawValue }

    /// A customer subscribed (`INITIAL_BUY`) or came back (`RESUBSCRIBE`).
    public static let subscribed = NotificationTypeV2(rawValue: "SUBSCRIBED")
    /// A plan change: `UPGRADE` (now), `DOWNGRADE` (at renewal), none (a downgrade undone).
    public static let didChangeRenewalPref = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_PREF")
    /// Auto-renew turned `AUTO_RENEW_ENABLED` or `AUTO_RENEW_DISABLED`.
    public static let didChangeRenewalStatus = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    /// A promotional offer or offer code was redeemed.
    public static let offerRedeemed = NotificationTypeV2(rawValue: "OFFER_REDEEMED")
    /// A subscription renewed (`BILLING_RECOVERY` after billing trouble).
    public static let didRenew = NotificationTypeV2(rawValue: "DID_RENEW")
    /// A subscription expired (`VOLUNTARY`, `BILLING_RETRY`, `PRICE_INCREASE`, `PRODUCT_NOT_FOR_SALE`).
    public static let expired = NotificationTypeV2(rawValue: "EXPIRED")
    /// A renewal failed for billing (`GRACE_PERIOD` while access continues).
    public static let didFailToRenew = NotificationTypeV2(rawValue: "DID_FAIL_TO_RENEW")
    /// The billing grace period ended without a renewal.
    public static let gracePeriodExpired = NotificationTypeV2(rawValue: "GRACE_PERIOD_EXPIRED")
    /// A price increase needing consent: `PENDING`, then `ACCEPTED`.
    public static let priceIncrease = NotificationTypeV2(rawValue: "PRICE_INCREASE")
    /// The App Store refunded a purchase.
    public static let refund = NotificationTypeV2(rawValue: "REFUND")
    /// The App Store declined a refund request.
    public static let refundDeclined = NotificationTypeV2(rawValue: "REFUND_DECLINED")
    /// A customer asked for a refund; the App Store asks for consumption information.
    public static let consumptionRequest = NotificationTypeV2(rawValue: "CONSUMPTION_REQUEST")
    /// One subscription's renewal date was extended.
    public static let renewalExtended = NotificationTypeV2(rawValue: "RENEWAL_EXTENDED")
    /// Family Sharing access ended.
    public static let revoke = NotificationTypeV2(rawValue: "REVOKE")
    /// A test notification, requested through the API.
    public static let test = NotificationTypeV2(rawValue: "TEST")
    /// A mass renewal-date extension finished (`SUMMARY`) or failed for one subscription (`FAILURE`).
    public static let renewalExtension = NotificationTypeV2(rawValue: "RENEWAL_EXTENSION")
    /// A refund was reversed (the purchase grants again).
    public static let refundReversed = NotificationTypeV2(rawValue: "REFUND_REVERSED")
    /// A consumable, non-consumable or non-renewing subscription was bought.
    public static let oneTimeCharge = NotificationTypeV2(rawValue: "ONE_TIME_CHARGE")
    /// An external purchase token was created but not reported (`UNREPORTED`).
    public static let externalPurchaseToken = NotificationTypeV2(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    /// A parent or guardian withdrew consent for a child's use of the app.
    public static let rescindConsent = NotificationTypeV2(rawValue: "RESCIND_CONSENT")
    /// A subscription's metadata changed (Advanced Commerce API).
    public static let metadataUpdate = NotificationTypeV2(rawValue: "METADATA_UPDATE")
    /// A subscription was migrated to the Advanced Commerce API.
    public static let migration = NotificationTypeV2(rawValue: "MIGRATION")
    /// A subscription's price changed (Advanced Commerce API).
    public static let priceChange = NotificationTypeV2(rawValue: "PRICE_CHANGE")

    /// Every notification type Apple documents, in the order of Apple's libraries.
    public static let allCases: [NotificationTypeV2] = [
        .subscribed, .didChangeRenewalPref, .didChangeRenewalStatus, .offerRedeemed, .didRenew, .expired,
        .didFailToRenew,
        .gracePeriodExpired, .priceIncrease, .refund, .refundDeclined, .consumptionRequest, .renewalExtended, .revoke,
        .test,
        .renewalExtension, .refundReversed, .externalPurchaseToken, .oneTimeCharge, .rescindConsent, .metadataUpdate,
        .migration,
        .priceChange,
    ]
}
