/// What further describes some notification types, as Apple's `subtype`; stored raw.
/// `allCases` is every subtype Apple documents (Apple's libraries' `Subtype` list, and the
/// external purchase token's `CREATED` and `ACTIVE_TOKEN_REMINDER`, which Apple's documentation
/// lists and the pinned Python library 3.1.2 does not yet).
public struct Subtype: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible, CaseIterable {
    /// Apple's value, e.g. `INITIAL_BUY`.
    public let rawValue: String
    /// Wraps a value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The raw value.
    public var description: String { rawValue }

    /// A first purchase of the subscription (`SUBSCRIBED`, `OFFER_REDEEMED`).
    public static let initialBuy = Subtype(rawValue: "INITIAL_BUY")
    /// A lapsed subscriber came back (`SUBSCRIBED`, `OFFER_REDEEMED`).
    public static let resubscribe = Subtype(rawValue: "RESUBSCRIBE")
    /// A change to a lower level, at the next renewal.
    public static let downgrade = Subtype(rawValue: "DOWNGRADE")
    /// A change to a higher level, at once.
    public static let upgrade = Subtype(rawValue: "UPGRADE")
    /// Auto-renew turned on.
    public static let autoRenewEnabled = Subtype(rawValue: "AUTO_RENEW_ENABLED")
    /// Auto-renew turned off.
    public static let autoRenewDisabled = Subtype(rawValue: "AUTO_RENEW_DISABLED")
    /// Expired after the customer turned auto-renew off.
    public static let voluntary = Subtype(rawValue: "VOLUNTARY")
    /// Expired when billing retry ended without a renewal.
    public static let billingRetry = Subtype(rawValue: "BILLING_RETRY")
    /// Expired because the customer did not consent to a price increase.
    public static let priceIncrease = Subtype(rawValue: "PRICE_INCREASE")
    /// Billing failed; access continues in the grace period.
    public static let gracePeriod = Subtype(rawValue: "GRACE_PERIOD")
    /// A price increase waits for the customer's consent.
    public static let pending = Subtype(rawValue: "PENDING")
    /// The customer consented to a price increase.
    public static let accepted = Subtype(rawValue: "ACCEPTED")
    /// A renewal after billing trouble.
    public static let billingRecovery = Subtype(rawValue: "BILLING_RECOVERY")
    /// Expired because the product was not for sale at renewal.
    public static let productNotForSale = Subtype(rawValue: "PRODUCT_NOT_FOR_SALE")
    /// A mass extension finished.
    public static let summary = Subtype(rawValue: "SUMMARY")
    /// A mass extension could not extend one subscription.
    public static let failure = Subtype(rawValue: "FAILURE")
    /// An external purchase token was not reported in time (`EXTERNAL_PURCHASE_TOKEN`).
    public static let unreported = Subtype(rawValue: "UNREPORTED")
    /// An external purchase token was created (`EXTERNAL_PURCHASE_TOKEN`).
    public static let created = Subtype(rawValue: "CREATED")
    /// An external purchase token is active and its report is due (`EXTERNAL_PURCHASE_TOKEN`).
    public static let activeTokenReminder = Subtype(rawValue: "ACTIVE_TOKEN_REMINDER")

    /// Every subtype Apple documents, in the order of Apple's libraries, then the newer ones.
    public static let allCases: [Subtype] = [
        .initialBuy, .resubscribe, .downgrade, .upgrade, .autoRenewEnabled, .autoRenewDisabled, .voluntary,
        .billingRetry,
        .priceIncrease, .gracePeriod, .pending, .accepted, .billingRecovery, .productNotForSale, .summary, .failure,
        .unreported, .created, .activeTokenReminder,
    ]
}
