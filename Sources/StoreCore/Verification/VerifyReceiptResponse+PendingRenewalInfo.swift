extension VerifyReceiptResponse {
    /// The renewal state of one auto-renewable subscription, open or failed
    /// (`responseBody.Pending_renewal_info`).
    public struct PendingRenewalInfo: Codable, Hashable, Sendable {
        /// `auto_renew_product_id`: the product the subscription renews into.
        public var autoRenewProductId: String?
        /// `auto_renew_status`: "1" when the subscription renews at the end of the period, "0" when the
        /// customer turned renewal off.
        public var autoRenewStatus: String?
        /// `expiration_intent`: why the subscription expired: "1" cancelled, "2" billing error, "3" price
        /// increase declined, "4" product unavailable, "5" other.
        public var expirationIntent: String?
        /// `grace_period_expires_date`: when the billing grace period ends, as Apple formats it
        /// ("2024-02-23 17:27:16 Etc/GMT").
        public var gracePeriodExpiresDate: String?
        /// `grace_period_expires_date_ms`: when the billing grace period ends, in milliseconds since 1970
        /// (`.date` reads it).
        public var gracePeriodExpiresDateMs: Milliseconds?
        /// `grace_period_expires_date_pst`: when the billing grace period ends, in Pacific time.
        public var gracePeriodExpiresDatePst: String?
        /// `is_in_billing_retry_period`: "1" while the App Store still tries to renew, "0" once it stopped.
        public var isInBillingRetryPeriod: String?
        /// `offer_code_ref_name`: the reference name of the subscription offer code redeemed.
        public var offerCodeRefName: String?
        /// `original_transaction_id`: the transaction identifier of the original purchase.
        public var originalTransactionId: String?
        /// `price_consent_status`: "1" when the customer consented to a price increase, "0" when not yet.
        public var priceConsentStatus: String?
        /// `price_increase_status`: "1" when the customer saw the price increase notice, "0" when not.
        public var priceIncreaseStatus: String?
        /// `product_id`: the product identifier.
        public var productId: String?
        /// `promotional_offer_id`: the promotional offer the subscription renews with.
        public var promotionalOfferId: String?

        /// Creates an empty value; set the members the answer carries.
        public init() {}

        enum CodingKeys: String, CodingKey {
            case autoRenewProductId = "auto_renew_product_id"
            case autoRenewStatus = "auto_renew_status"
            case expirationIntent = "expiration_intent"
            case gracePeriodExpiresDate = "grace_period_expires_date"
            case gracePeriodExpiresDateMs = "grace_period_expires_date_ms"
            case gracePeriodExpiresDatePst = "grace_period_expires_date_pst"
            case isInBillingRetryPeriod = "is_in_billing_retry_period"
            case offerCodeRefName = "offer_code_ref_name"
            case originalTransactionId = "original_transaction_id"
            case priceConsentStatus = "price_consent_status"
            case priceIncreaseStatus = "price_increase_status"
            case productId = "product_id"
            case promotionalOfferId = "promotional_offer_id"
        }
    }
}
