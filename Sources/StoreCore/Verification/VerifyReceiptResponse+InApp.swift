extension VerifyReceiptResponse {
    /// One in-app purchase as the decoded receipt lists it (`responseBody.Receipt.In_app`); the
    /// latest receipt's entries (`LatestReceiptInfo`) carry all of it and more.
    public struct InApp: Codable, Hashable, Sendable {
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
        /// `is_in_intro_offer_period`: whether the period is an introductory-price period ("true" or
        /// "false").
        public var isInIntroOfferPeriod: Flag?
        /// `is_trial_period`: whether the period is a free trial ("true" or "false").
        public var isTrialPeriod: Flag?
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
        /// `transaction_id`: the transaction identifier.
        public var transactionId: String?
        /// `web_order_line_item_id`: the identifier of subscription purchase events across devices,
        /// renewals included.
        public var webOrderLineItemId: String?

        /// Creates an empty value; set the members the answer carries.
        public init() {}

        enum CodingKeys: String, CodingKey {
            case cancellationDate = "cancellation_date"
            case cancellationDateMs = "cancellation_date_ms"
            case cancellationDatePst = "cancellation_date_pst"
            case cancellationReason = "cancellation_reason"
            case expiresDate = "expires_date"
            case expiresDateMs = "expires_date_ms"
            case expiresDatePst = "expires_date_pst"
            case isInIntroOfferPeriod = "is_in_intro_offer_period"
            case isTrialPeriod = "is_trial_period"
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
            case transactionId = "transaction_id"
            case webOrderLineItemId = "web_order_line_item_id"
        }
    }
}
