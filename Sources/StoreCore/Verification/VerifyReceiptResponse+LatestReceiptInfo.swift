extension VerifyReceiptResponse {
    /// One in-app purchase transaction, renewals included, as the latest receipt lists it
    /// (`responseBody.Latest_receipt_info`); finished consumables are left out.
    public struct LatestReceiptInfo: Codable, Hashable, Sendable {
        /// `app_account_token`: the UUID the app gave the purchase (`appAccountToken`).
        public var appAccountToken: String?
        /// `cancellation_date`: when Apple refunded the purchase or the customer upgraded, as Apple formats
        /// it ("2024-02-23 17:27:16 Etc/GMT").
        public var cancellationDate: String?
        /// `cancellation_date_ms`: when Apple refunded the purchase or the customer upgraded, in
        /// milliseconds since 1970 (`.date` reads it).
        public var cancellationDateMs: Milliseconds?
        /// `cancellation_date_pst`: when Apple refunded the purchase or the customer upgraded, in Pacific
        /// time.
        public var cancellationDatePst: String?
        /// `cancellation_reason`: why Apple refunded: "1" an issue in the app, "0" another reason.
        public var cancellationReason: String?
        /// `expires_date`: when the subscription expires or renews, as Apple formats it ("2024-02-23
        /// 17:27:16 Etc/GMT").
        public var expiresDate: String?
        /// `expires_date_ms`: when the subscription expires or renews, in milliseconds since 1970 (`.date`
        /// reads it).
        public var expiresDateMs: Milliseconds?
        /// `expires_date_pst`: when the subscription expires or renews, in Pacific time.
        public var expiresDatePst: String?
        /// `in_app_ownership_type`: "PURCHASED" or "FAMILY_SHARED".
        public var inAppOwnershipType: String?
        /// `is_in_intro_offer_period`: whether the period is an introductory-price period ("true" or
        /// "false").
        public var isInIntroOfferPeriod: Flag?
        /// `is_trial_period`: whether the period is a free trial ("true" or "false").
        public var isTrialPeriod: Flag?
        /// `is_upgraded`: whether the customer upgraded to another subscription, ending this one ("true").
        public var isUpgraded: Flag?
        /// `offer_code_ref_name`: the reference name of the subscription offer code redeemed.
        public var offerCodeRefName: String?
        /// `original_purchase_date`: when the original transaction was made, as Apple formats it
        /// ("2024-02-23 17:27:16 Etc/GMT").
        public var originalPurchaseDate: String?
        /// `original_purchase_date_ms`: when the original transaction was made, in milliseconds since 1970
        /// (`.date` reads it).
        public var originalPurchaseDateMs: Milliseconds?
        /// `original_purchase_date_pst`: when the original transaction was made, in Pacific time.
        public var originalPurchaseDatePst: String?
        /// `original_transaction_id`: the transaction identifier of the original purchase.
        public var originalTransactionId: String?
        /// `product_id`: the product identifier.
        public var productId: String?
        /// `promotional_offer_id`: the identifier of the promotional offer redeemed.
        public var promotionalOfferId: String?
        /// `purchase_date`: when the App Store charged (or restored, or renewed), as Apple formats it
        /// ("2024-02-23 17:27:16 Etc/GMT").
        public var purchaseDate: String?
        /// `purchase_date_ms`: when the App Store charged (or restored, or renewed), in milliseconds since
        /// 1970 (`.date` reads it).
        public var purchaseDateMs: Milliseconds?
        /// `purchase_date_pst`: when the App Store charged (or restored, or renewed), in Pacific time.
        public var purchaseDatePst: String?
        /// `quantity`: how many items were bought.
        public var quantity: String?
        /// `subscription_group_identifier`: the subscription group the product belongs to.
        public var subscriptionGroupIdentifier: String?
        /// `transaction_id`: the transaction identifier.
        public var transactionId: String?
        /// `web_order_line_item_id`: the identifier of subscription purchase events across devices,
        /// renewals included.
        public var webOrderLineItemId: String?

        /// Creates an empty value; set the members the answer carries.
        public init() {}

        enum CodingKeys: String, CodingKey {
            case appAccountToken = "app_account_token"
            case cancellationDate = "cancellation_date"
            case cancellationDateMs = "cancellation_date_ms"
            case cancellationDatePst = "cancellation_date_pst"
            case cancellationReason = "cancellation_reason"
            case expiresDate = "expires_date"
            case expiresDateMs = "expires_date_ms"
            case expiresDatePst = "expires_date_pst"
            case inAppOwnershipType = "in_app_ownership_type"
            case isInIntroOfferPeriod = "is_in_intro_offer_period"
            case isTrialPeriod = "is_trial_period"
            case isUpgraded = "is_upgraded"
            case offerCodeRefName = "offer_code_ref_name"
            case originalPurchaseDate = "original_purchase_date"
            case originalPurchaseDateMs = "original_purchase_date_ms"
            case originalPurchaseDatePst = "original_purchase_date_pst"
            case originalTransactionId = "original_transaction_id"
            case productId = "product_id"
            case promotionalOfferId = "promotional_offer_id"
            case purchaseDate = "purchase_date"
            case purchaseDateMs = "purchase_date_ms"
            case purchaseDatePst = "purchase_date_pst"
            case quantity
            case subscriptionGroupIdentifier = "subscription_group_identifier"
            case transactionId = "transaction_id"
            case webOrderLineItemId = "web_order_line_item_id"
        }
    }
}
