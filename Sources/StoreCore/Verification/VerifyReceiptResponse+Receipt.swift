extension VerifyReceiptResponse {
    /// The decoded receipt sent for verification (`responseBody.Receipt`).
    public struct Receipt: Codable, Hashable, Sendable {
        /// `adam_id`: the app's App Store item identifier (`app_item_id`'s older name).
        public var adamId: Int64?
        /// `app_item_id`: the app's App Store item identifier (0 in the sandbox).
        public var appItemId: Int64?
        /// `application_version`: the app version (`CFBundleVersion`) the receipt was made for.
        public var applicationVersion: String?
        /// `bundle_id`: the app's bundle identifier.
        public var bundleId: String?
        /// `download_id`: a unique identifier of the app download.
        public var downloadId: Int64?
        /// `expiration_date`: when the receipt expires (Volume Purchase Program), as Apple formats it
        /// ("2024-02-23 17:27:16 Etc/GMT").
        public var expirationDate: String?
        /// `expiration_date_ms`: when the receipt expires (Volume Purchase Program), in milliseconds since
        /// 1970 (`.date` reads it).
        public var expirationDateMs: Milliseconds?
        /// `expiration_date_pst`: when the receipt expires (Volume Purchase Program), in Pacific time.
        public var expirationDatePst: String?
        /// `in_app`: the in-app purchase entries of the receipt.
        public var inApp: [InApp]?
        /// `original_application_version`: the app version the customer originally bought.
        public var originalApplicationVersion: String?
        /// `original_purchase_date`: when the customer originally bought the app, as Apple formats it
        /// ("2024-02-23 17:27:16 Etc/GMT").
        public var originalPurchaseDate: String?
        /// `original_purchase_date_ms`: when the customer originally bought the app, in milliseconds since
        /// 1970 (`.date` reads it).
        public var originalPurchaseDateMs: Milliseconds?
        /// `original_purchase_date_pst`: when the customer originally bought the app, in Pacific time.
        public var originalPurchaseDatePst: String?
        /// `preorder_date`: when the customer pre-ordered the app, as Apple formats it ("2024-02-23
        /// 17:27:16 Etc/GMT").
        public var preorderDate: String?
        /// `preorder_date_ms`: when the customer pre-ordered the app, in milliseconds since 1970 (`.date`
        /// reads it).
        public var preorderDateMs: Milliseconds?
        /// `preorder_date_pst`: when the customer pre-ordered the app, in Pacific time.
        public var preorderDatePst: String?
        /// `receipt_creation_date`: when the App Store made the receipt, as Apple formats it ("2024-02-23
        /// 17:27:16 Etc/GMT").
        public var receiptCreationDate: String?
        /// `receipt_creation_date_ms`: when the App Store made the receipt, in milliseconds since 1970
        /// (`.date` reads it).
        public var receiptCreationDateMs: Milliseconds?
        /// `receipt_creation_date_pst`: when the App Store made the receipt, in Pacific time.
        public var receiptCreationDatePst: String?
        /// `receipt_type`: "Production", "ProductionVPP", "ProductionSandbox" or "ProductionVPPSandbox".
        public var receiptType: String?
        /// `request_date`: when the verifyReceipt request was answered, as Apple formats it ("2024-02-23
        /// 17:27:16 Etc/GMT").
        public var requestDate: String?
        /// `request_date_ms`: when the verifyReceipt request was answered, in milliseconds since 1970
        /// (`.date` reads it).
        public var requestDateMs: Milliseconds?
        /// `request_date_pst`: when the verifyReceipt request was answered, in Pacific time.
        public var requestDatePst: String?
        /// `version_external_identifier`: the version of the app the receipt was made for.
        public var versionExternalIdentifier: Int64?

        /// Creates an empty value; set the members the answer carries.
        public init() {}

        enum CodingKeys: String, CodingKey {
            case adamId = "adam_id"
            case appItemId = "app_item_id"
            case applicationVersion = "application_version"
            case bundleId = "bundle_id"
            case downloadId = "download_id"
            case expirationDate = "expiration_date"
            case expirationDateMs = "expiration_date_ms"
            case expirationDatePst = "expiration_date_pst"
            case inApp = "in_app"
            case originalApplicationVersion = "original_application_version"
            case originalPurchaseDate = "original_purchase_date"
            case originalPurchaseDateMs = "original_purchase_date_ms"
            case originalPurchaseDatePst = "original_purchase_date_pst"
            case preorderDate = "preorder_date"
            case preorderDateMs = "preorder_date_ms"
            case preorderDatePst = "preorder_date_pst"
            case receiptCreationDate = "receipt_creation_date"
            case receiptCreationDateMs = "receipt_creation_date_ms"
            case receiptCreationDatePst = "receipt_creation_date_pst"
            case receiptType = "receipt_type"
            case requestDate = "request_date"
            case requestDateMs = "request_date_ms"
            case requestDatePst = "request_date_pst"
            case versionExternalIdentifier = "version_external_identifier"
        }
    }
}
